import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { clearAutoMemPathCache, getAutoMemPath } from '../../src-main/core/paths/auto-mem-path.js'
import { sanitizePath } from '../../src-main/core/paths/sanitize.js'
import { createHost } from '../../src-main/host/app/host.js'
import { changesOutside, snapshotTree } from '../helpers/home-snapshot.js'
import { sandbox, writeFile } from '../helpers/temp-env.js'

/**
 * Starting the app creates nothing and shows the truth: transcripts whose `cwd` maps to another
 * memory dir (the folder moved, a symlinked path) never make the app open, or create, a memory dir
 * the picker does not name; a project with no memory yet gets none until the user writes one.
 */

beforeEach(() => clearAutoMemPathCache())

const mem = (i: number) => `---\nname: M${i}\ndescription: fact ${i}\ntype: project\n---\n\nx\n`

type Ok<T> = { ok: true; value: T }

describe('the first start', () => {
  it('with transcripts whose cwd maps elsewhere: no folder appears under ~/.claude/projects, and the picker names what is open', async () => {
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    // Claude Code ran in /…/work/proj, since moved: its memory and a transcript naming the old path.
    const oldRoot = join(sb.root, 'work', 'proj-before-move')
    const projectDir = join(sb.configDir, 'projects', sanitizePath(oldRoot))
    for (let i = 0; i < 25; i++) writeFile(join(projectDir, 'memory', `m${i}.md`), mem(i))
    // The transcript's cwd exists but is a symlink-free other folder that maps to another memory dir.
    const elsewhere = join(sb.root, 'work', 'proj')
    writeFile(join(projectDir, 's1.jsonl'), JSON.stringify({ type: 'user', cwd: elsewhere }) + '\n')
    const before = snapshotTree(sb.home)
    const host = await createHost({ env: sb.env, agentSocket: false })
    try {
      const current = (await host.call('workspace/current', undefined)) as Ok<{
        memoryDir: string
        isDemo: boolean
      }>
      const list = (await host.call('workspace/list', undefined)) as Ok<
        { memoryDir: string; label: string; memoryCount: number; projectRoot: string }[]
      >
      const listed = list.value.find((w) => w.memoryCount === 25)!
      // The project is listed with its memories and no folder: the user picks it, nothing guesses.
      expect(listed.projectRoot).toBe('')
      // Whatever is open is what the picker names (here the demo, which lives in Memdir's data dir).
      expect(current.value.memoryDir).not.toBe(getAutoMemPath({ projectRoot: elsewhere, env: sb.env }))
      const open = list.value.find((w) => w.memoryDir === current.value.memoryDir)
      expect(open ?? current.value.isDemo).toBeTruthy()
    } finally {
      await host.close()
    }
    expect(changesOutside(before, snapshotTree(sb.home), [])).toEqual([])
  })

  it('opening a project with no memory yet creates no memory dir; the first memory the user saves does', async () => {
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    mkdirSync(sb.project, { recursive: true })
    const memoryDir = getAutoMemPath(sb.ctx())
    const before = snapshotTree(sb.home)
    const host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      for (const m of ['memory/list', 'index/get', 'health/get', 'history/list', 'team/status'] as const)
        await host.call(m, m === 'history/list' ? {} : undefined)
      await host.call('prompt/get', { mode: 'normal' })
      await host.call('recall/preview', { query: 'database tests', recentTools: [] })
      expect(existsSync(memoryDir)).toBe(false)
      expect(changesOutside(before, snapshotTree(sb.home), [])).toEqual([])
      const created = await host.call('memory/create', {
        input: { name: 'First', description: 'the first fact', type: 'project', body: 'x' },
        scope: 'private',
      })
      expect(created).toMatchObject({ ok: true })
      expect(existsSync(join(memoryDir, 'first.md'))).toBe(true)
      // The watcher follows the dir from when it appeared: an external write shows up too.
      writeFile(join(memoryDir, 'external.md'), mem(99))
      const deadline = Date.now() + 5000
      let names: string[] = []
      while (Date.now() < deadline && !names.includes('external.md')) {
        await new Promise((r) => setTimeout(r, 100))
        names = ((await host.call('memory/list', undefined)) as Ok<{ relPath: string }[]>).value.map(
          (m) => m.relPath,
        )
      }
      expect(names).toContain('external.md')
    } finally {
      await host.close()
    }
  })
})
