import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HistoryPage, MemoryListItem } from '../../../src-shared/types.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { until } from '../../../test/helpers/until.js'
import { createHost, type Host } from './host.js'

const mem = (n: string, body = `body of ${n}`) =>
  `---\nname: ${n}\ndescription: about ${n}\ntype: project\n---\n\n${body}\n`

async function call<T>(host: Host, method: string, args?: unknown): Promise<T> {
  const r = (await host.call(method, args)) as { ok: boolean; value?: T; error?: unknown }
  if (!r.ok) throw new Error(JSON.stringify(r.error))
  return r.value as T
}

/** A sandbox whose memory dir holds `count` memories last changed a day ago. */
function memoriesAged(count: number) {
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  const dir = getAutoMemPath(sb.ctx())
  const old = Date.now() / 1000 - 86_400
  for (let i = 0; i < count; i++) utimesSync(writeFile(join(dir, `m${i}.md`), mem(`m${i}`)), old, old)
  return { sb, dir }
}

describe('the app follows a large memory dir changed by other programs', () => {
  it('2,000 memories: edits, deletes, a new folder and a save by rename, each in the list and in history as external', async () => {
    const { sb, dir } = memoriesAged(2000)
    const host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      expect(await call<MemoryListItem[]>(host, 'memory/list')).toHaveLength(2000)
      for (let i = 0; i < 20; i++)
        writeFileSync(join(dir, `m${i}.md`), mem(`m${i}`, 'edited by another program'))
      for (let i = 20; i < 25; i++) rmSync(join(dir, `m${i}.md`))
      mkdirSync(join(dir, 'notes'))
      for (let i = 0; i < 5; i++) writeFileSync(join(dir, 'notes', `n${i}.md`), mem(`n${i}`))
      // An editor's atomic save: a temp file renamed over the memory.
      writeFileSync(join(dir, '.m30.md.swp'), mem('m30', 'saved by rename'))
      renameSync(join(dir, '.m30.md.swp'), join(dir, 'm30.md'))

      await until(
        'the list to follow the changes',
        async () => {
          const list = await call<MemoryListItem[]>(host, 'memory/list')
          return list.length === 2000 && list.some((m) => m.relPath === 'notes/n4.md')
        },
        15_000,
      )
      await until(
        'history to record the 31 changes',
        async () => {
          const all = (await call<HistoryPage>(host, 'history/list', {})).items
          return all.filter((e) => e.change !== 'baseline').length >= 31
        },
        15_000,
      )
      const now = (await call<HistoryPage>(host, 'history/list', {})).items
      const external = (change: string) =>
        now
          .filter((e) => e.change === change && e.author === 'external')
          .map((e) => e.path)
          .sort()
      expect(external('modify')).toEqual(
        [...Array.from({ length: 20 }, (_, i) => `m${i}.md`), 'm30.md'].sort(),
      )
      expect(external('delete')).toEqual(Array.from({ length: 5 }, (_, i) => `m${20 + i}.md`).sort())
      expect(external('create')).toEqual(Array.from({ length: 5 }, (_, i) => `notes/n${i}.md`))
      const untouched = (await call<HistoryPage>(host, 'history/list', { path: 'm100.md' })).items
      expect(untouched.map((e) => [e.change, e.author])).toEqual([['baseline', 'external']])
    } finally {
      await host.close()
    }
  }, 60_000)

  it('a first opening of 2,500 memories (history copies them in the background): a save made at once waits for their baseline, and closing waits for the copies', async () => {
    const { sb } = memoriesAged(2500)
    let host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      expect(await call<MemoryListItem[]>(host, 'memory/list')).toHaveLength(2500)
      const doc = await call<{ hash: string }>(host, 'memory/read', { relPath: 'm5.md' })
      await call(host, 'memory/update', {
        relPath: 'm5.md',
        input: { name: 'm5', description: 'about m5', type: 'project', body: 'saved by the user at once' },
        expectedHash: doc.hash,
      })
      const m5 = (await call<HistoryPage>(host, 'history/list', { path: 'm5.md' })).items
      expect(m5.map((e) => [e.change, e.author])).toEqual([
        ['modify', 'user'],
        ['baseline', 'external'],
      ])
      const last = (await call<HistoryPage>(host, 'history/list', { path: 'm2499.md' })).items
      expect(last.map((e) => e.change)).toEqual(['baseline'])
    } finally {
      await host.close()
    }
    // Closing waited for the copies: the next opening finds nothing to record.
    host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      const all = (await call<HistoryPage>(host, 'history/list', {})).items
      expect(all.filter((e) => e.change !== 'baseline')).toHaveLength(1)
      expect(all.filter((e) => e.author !== 'external').map((e) => e.path)).toEqual(['m5.md'])
    } finally {
      await host.close()
    }
  }, 90_000)
})
