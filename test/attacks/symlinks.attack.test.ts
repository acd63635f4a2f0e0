import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAutoMemCanUseTool } from '../../src-main/core/model/permissions.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../src-main/core/paths/auto-mem-path.js'
import { createHost } from '../../src-main/host/app/host.js'
import { cliSession } from '../helpers/cli.js'
import { snapshotTree } from '../helpers/home-snapshot.js'
import { sandbox, writeFile } from '../helpers/temp-env.js'

/**
 * Symlinks in the memory dir, one rule: followed for reading everywhere (as Claude Code's
 * recursive readdir follows them, and recall with it), shown read-only with where the memory
 * really lives, and never written through when they lead outside — editor, MCP, agents, restore.
 */

beforeEach(() => clearAutoMemPathCache())

const memory = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: reference\n---\n\n${description}.\n`

function world() {
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.home, '.memdir')
  const memoryDir = getAutoMemPath(sb.ctx())
  const outside = join(sb.root, 'dotfiles', 'memories')
  writeFile(join(outside, 'kafka.md'), memory('Kafka lag', 'kafka consumer lag alert runbook'))
  writeFile(join(outside, 'shared', 'oncall.md'), memory('Oncall', 'pager rotation for the payments oncall'))
  mkdirSync(memoryDir, { recursive: true })
  symlinkSync(join(outside, 'kafka.md'), join(memoryDir, 'kafka.md'))
  symlinkSync(join(outside, 'shared'), join(memoryDir, 'shared'))
  writeFile(join(memoryDir, 'local.md'), memory('Local', 'a plain memory'))
  return { sb, memoryDir, outside }
}

type Ok<T> = { ok: true; value: T }

describe('symlinks in the memory dir', () => {
  it('are read like Claude Code reads them: listed, recalled and opened, read-only with where they live', async () => {
    const { sb, memoryDir, outside } = world()
    const list = cliSession(sb.env, sb.project)
    expect(await list.run(['list', '--json'])).toBe(0)
    const names = (JSON.parse(list.io.stdout) as { filename: string }[]).map((m) => m.filename).sort()
    expect(names).toEqual(['kafka.md', 'local.md', 'shared/oncall.md'])
    const recall = cliSession(sb.env, sb.project)
    expect(await recall.run(['recall', 'kafka consumer lag alert'])).toBe(0)
    expect(recall.io.stdout).toContain(join(memoryDir, 'kafka.md'))

    const host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      const read = (await host.call('memory/read', { relPath: 'shared/oncall.md' })) as Ok<{
        linkedTo?: string
        body: string
      }>
      expect(read.ok).toBe(true)
      expect(read.value.linkedTo).toBe(join(outside, 'shared', 'oncall.md'))
      expect(read.value.body).toContain('pager rotation')
      const local = (await host.call('memory/read', { relPath: 'local.md' })) as Ok<{ linkedTo?: string }>
      expect(local.value.linkedTo).toBeUndefined()
    } finally {
      await host.close()
    }
  })

  it('are never written through when they lead outside: editor, MCP, agents and restore all refuse', async () => {
    const { sb, memoryDir, outside } = world()
    const before = snapshotTree(outside)
    const host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      const doc = (await host.call('memory/read', { relPath: 'kafka.md' })) as Ok<{ hash: string }>
      const input = { name: 'Kafka lag', description: 'changed', type: 'reference' as const, body: 'changed' }
      expect(
        await host.call('memory/update', { relPath: 'kafka.md', input, expectedHash: doc.value.hash }),
      ).toMatchObject({ ok: false, error: { code: 'READ_ONLY', message: expect.stringContaining(outside) } })
      expect(
        await host.call('memory/delete', { relPath: 'kafka.md', expectedHash: doc.value.hash }),
      ).toMatchObject({
        ok: false,
        error: { code: 'READ_ONLY' },
      })
      expect(await host.call('memory/rename', { from: 'kafka.md', to: 'kafka2.md' })).toMatchObject({
        ok: false,
        error: { code: 'READ_ONLY' },
      })
      expect(
        await host.call('memory/create', { input, scope: 'private', fileName: 'shared/new.md' }),
      ).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PATH' },
      })
    } finally {
      await host.close()
    }
    const can = createAutoMemCanUseTool(memoryDir)
    for (const file of ['kafka.md', 'shared/oncall.md', 'shared/new.md'])
      expect((await can('Write', { file_path: join(memoryDir, file), content: 'x' })).behavior, file).toBe(
        'deny',
      )
    const restore = cliSession(sb.env, sb.project)
    expect(await restore.run(['restore', 'kafka.md', '--to', '1'])).not.toBe(0)
    expect(snapshotTree(outside)).toEqual(before)
  })
})
