import { readFileSync, readdirSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { METHODS, type MethodName } from '../../../src-shared/contract.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { createHost, type Host } from './host.js'

/** Per method: calls that must be refused before a handler runs, and the field the refusal names. */
const MALFORMED: Record<MethodName, [unknown, string][]> = {
  'workspace/list': [[{ x: 1 }, '(arguments)']],
  'workspace/current': [['x', '(arguments)']],
  'workspace/open': [[null, '(arguments)'], [{}, 'projectRoot'], [{ projectRoot: 5 }, 'projectRoot'], [{ projectRoot: '' }, 'projectRoot']],
  'workspace/link': [[{ memoryDir: '/x' }, 'projectRoot'], [{ memoryDir: '', projectRoot: '/p' }, 'memoryDir']],
  'memory/search': [[{}, 'query'], [{ query: 3 }, 'query']],
  'dream/status': [[{ force: true }, '(arguments)']],
  'dream/run': [[{}, 'force'], [{ force: 'yes' }, 'force']],
  'health/get': [[{ x: 1 }, '(arguments)']],
  'health/checkContradictions': [[{ x: 1 }, '(arguments)']],
  'health/fixAll': [[{ kind: 'dead-pointer', fix: 'merge' }, 'fix'], [{ kind: '', fix: 'verify' }, 'kind']],
  'health/fix': [[{ id: 'x' }, 'fix'], [{ id: '', fix: 'verify' }, 'id'], [{ id: 'x', fix: 'rm -rf' }, 'fix']],
  'memory/list': [[[], '(arguments)'], [{ first: 0 }, 'first'], [{ first: 1.5 }, 'first'], [{ first: '3' }, 'first'], [{ last: 3 }, 'last']],
  'memory/read': [[null, '(arguments)'], [{ relPath: 1 }, 'relPath'], [{ relPath: 'a.md', extra: 1 }, 'extra']],
  'memory/create': [
    [{ input: { name: 'n', description: 'd', type: 'user\ndescription: injected', body: '' }, scope: 'private' }, 'input.type'],
    [{ input: { name: 'n', description: 'd', type: null, body: '' }, scope: 'public' }, 'scope'],
    [{ input: { name: 1, description: 'd', type: null, body: '' }, scope: 'team' }, 'input.name'],
    [{ scope: 'team' }, 'input'],
  ],
  'memory/update': [[{ relPath: 'a.md', input: { name: 'n', description: 'd', type: null, body: '' } }, 'expectedHash'], [{ relPath: 'a.md', input: null, expectedHash: 'x' }, 'input']],
  'memory/rename': [[{ from: 'a.md' }, 'to'], [{ from: 'a.md', to: 7 }, 'to']],
  'memory/delete': [[{}, 'relPath'], [{ relPath: 'a.md', expectedHash: 3 }, 'expectedHash']],
  'index/get': [[1, '(arguments)']],
  'prompt/get': [[{ mode: 'evil' }, 'mode'], [undefined, '(arguments)']],
  'recall/preview': [[{ query: 'x' }, 'recentTools'], [{ query: 'x', recentTools: [1] }, 'recentTools.0']],
  'activity/list': [[{}, '(arguments)']],
  'team/status': [[{}, '(arguments)']],
  'team/syncNow': [[true, '(arguments)']],
  'settings/get': [[{}, '(arguments)']],
  'settings/set': [[{ dreamMinHours: -1 }, 'dreamMinHours'], [{ reviewMode: 'yes' }, 'reviewMode'], [{ memoryFormat: 'xml' }, 'memoryFormat'], [{ apiKeyy: 'x' }, 'apiKeyy']],
  'history/list': [
    [{ path: 3 }, 'path'],
    [{ limit: 0 }, 'limit'],
  ],
  'history/diff': [[{ id: '1' }, 'id'], [{ id: 1.5 }, 'id'], [{ id: -1 }, 'id']],
  'history/restore': [[{ path: 'a.md' }, 'id'], [{ id: 1 }, 'path']],
  'history/undoRun': [[{ runId: '' }, 'runId']],
  'review/list': [['x', '(arguments)']],
  'review/approve': [[{ id: 'p', edits: { 'a.md': 1 } }, 'edits.a.md'], [{}, 'id']],
  'review/reject': [[{ id: 5 }, 'id']],
  'integrations/get': [[{ scope: 'user' }, '(arguments)']],
  'integrations/planHooks': [[{ scope: 'global', action: 'install' }, 'scope'], [{ scope: 'user' }, 'action']],
  'integrations/applyHooks': [[{ scope: 'user', action: 'install' }, 'beforeHash'], [{ scope: 'user', action: 'remove', beforeHash: null }, 'action']],
} // prettier-ignore

let host: Host
let memoryDir: string
beforeEach(async () => {
  clearAutoMemPathCache()
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  memoryDir = getAutoMemPath(sb.ctx())
  writeFile(join(memoryDir, 'a.md'), '---\nname: A\ndescription: alpha\ntype: user\n---\nx\n')
  host = await createHost({ env: sb.env, projectRoot: sb.project })
})
afterEach(() => host.close())

describe('every RPC method checks its arguments against the contract', () => {
  it('the table covers every method', () => {
    expect(Object.keys(MALFORMED).sort()).toEqual([...METHODS].sort())
  })

  it.each(
    METHODS.flatMap((m) =>
      MALFORMED[m].map(([args, field]) => [m, JSON.stringify(args) ?? 'undefined', args, field] as const),
    ),
  )('%s %s → BAD_REQUEST naming %s', async (method, _shown, args, field) => {
    const r = await host.call(method, args)
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
    if (!r.ok) expect(r.error.message).toContain(`${field}:`)
  })

  it('a type that tries to inject a field writes nothing', async () => {
    const before = readdirSync(memoryDir).sort()
    await host.call('memory/create', {
      input: { name: 'x', description: 'd', type: 'user\ndescription: injected', body: '' },
      scope: 'private',
    })
    expect(readdirSync(memoryDir).sort()).toEqual(before)
    expect(readFileSync(join(memoryDir, 'a.md'), 'utf8')).toContain('type: user')
  })

  it('unknown methods and non-string names are refused, not run', async () => {
    for (const m of ['nope', '__proto__', 'constructor', 'toString', 42, null, undefined]) {
      expect(await host.call(m, undefined)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } })
    }
  })

  it('valid calls still work', async () => {
    expect(await host.call('memory/read', { relPath: 'a.md' })).toMatchObject({
      ok: true,
      value: { name: 'A' },
    })
  })
})

describe('memory/list', () => {
  it('with `first`, answers the newest so many in the whole list’s order', async () => {
    for (const [i, n] of ['b', 'c', 'd', 'e'].entries()) {
      const path = join(memoryDir, `${n}.md`)
      writeFile(path, `---\nname: ${n}\ndescription: d\ntype: user\n---\nx\n`)
      const t = new Date(Date.UTC(2026, 0, 1 + i))
      utimesSync(path, t, t)
    }
    const list = async (args?: { first: number }) => {
      const r = await host.call('memory/list', args)
      if (!r.ok) throw new Error(r.error.message)
      return (r.value as { relPath: string }[]).map((m) => m.relPath)
    }
    await expect.poll(() => list(), { timeout: 5000 }).toHaveLength(5)
    const whole = await list()
    expect(await list({ first: 2 })).toEqual(whole.slice(0, 2))
    expect(await list({ first: 50 })).toEqual(whole)
  })
})
