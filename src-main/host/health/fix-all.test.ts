import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { undoRun } from '../../core/history/restore.js'
import { ProposalStore } from '../../core/review/proposals.js'
import { historyForCli } from '../history/recording.js'
import { WorkspaceHealth } from './workspace-health.js'

async function world(lines: string[], files: Record<string, string> = {}) {
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  clearAutoMemPathCache()
  const ctx = sb.ctx()
  const dir = getAutoMemPath(ctx)
  for (const [f, text] of Object.entries(files)) writeFile(join(dir, f), text)
  writeFile(join(dir, 'MEMORY.md'), lines.join('\n') + '\n')
  const { store, memoryDir, writer } = await historyForCli(ctx)
  const health = new WorkspaceHealth({
    memoryDir,
    history: store,
    proposals: new ProposalStore(join(sb.root, 'proposals')),
    writer,
  })
  return { dir, store, health }
}

describe('Fix all', () => {
  it('removes 210 dead pointers in one write of MEMORY.md, and one undo brings them all back', async () => {
    const dead = Array.from({ length: 210 }, (_, i) => `- [Gone ${i}](gone_${i}.md) — removed long ago`)
    const { dir, store, health } = await world(['# Memory', '- [Kept](kept.md) — stays', ...dead], {
      'kept.md': '---\nname: Kept\ndescription: stays\ntype: project\n---\n\nbody\n',
    })
    const before = readFileSync(join(dir, 'MEMORY.md'), 'utf8')
    const report = await health.report()
    expect(report.counts['dead-pointer']).toBe(210)

    const r = await health.fixAll('dead-pointer', 'remove-pointer')
    expect(r).toMatchObject({ message: 'Fixed 210 findings in 1 file', changed: ['MEMORY.md'], failed: [] })
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('# Memory\n- [Kept](kept.md) — stays\n')
    // One history entry for the file, under the batch's run.
    const entries = await store.list({ runId: r.runId! })
    expect(entries.map((e) => [e.path, e.author])).toEqual([['MEMORY.md', 'user']])
    expect((await health.report()).counts['dead-pointer']).toBeUndefined()

    await undoRun(store, dir, r.runId!)
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(before)
  })

  it('"Fix all" asked twice at once fixes once; the second finds nothing left, not a run with nothing to undo', async () => {
    const dead = Array.from({ length: 5 }, (_, i) => `- [Gone ${i}](gone_${i}.md) — removed long ago`)
    const { dir, store, health } = await world(['# Memory', ...dead])
    const both = await Promise.allSettled([
      health.fixAll('dead-pointer', 'remove-pointer'),
      health.fixAll('dead-pointer', 'remove-pointer'),
    ])
    expect(both.map((o) => o.status)).toEqual(['fulfilled', 'rejected'])
    expect((both[1] as PromiseRejectedResult).reason).toMatchObject({
      code: 'NOT_FOUND',
      message: 'No finding of that kind is left to fix.',
    })
    const r = (both[0] as PromiseFulfilledResult<{ runId?: string; message: string }>).value
    expect(r.message).toBe('Fixed 5 findings in 1 file')
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('# Memory\n')
    expect(await store.list({ runId: r.runId! })).toHaveLength(1)
  })

  it('adds every missing pointer at once, and says which it could not fix', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [
        `note_${i}.md`,
        `---\nname: Note ${i}\ndescription: note number ${i}\ntype: project\n---\n\nbody\n`,
      ]),
    )
    const { dir, store, health } = await world(['# Memory'], files)
    const r = await health.fixAll('unindexed', 'add-pointer')
    expect(r.message).toBe('Fixed 5 findings in 1 file')
    const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8')
    for (let i = 0; i < 5; i++) expect(index).toContain(`](note_${i}.md)`)
    expect(await store.list({ runId: r.runId! })).toHaveLength(1)
    expect(existsSync(join(dir, 'note_0.md'))).toBe(true)
    await expect(health.fixAll('unindexed', 'add-pointer')).rejects.toThrow('No finding of that kind')
  })
})

describe('Fix all across both indexes', () => {
  it('writes MEMORY.md and team/MEMORY.md once each, and keeps the live links of a line that also named a dead one', async () => {
    const memo = (n: string) => `---\nname: ${n}\ndescription: ${n} hook\ntype: project\n---\n\nbody\n`
    const { dir, store, health } = await world(
      [
        '# Memory',
        '- [Gone a](gone_a.md) — removed',
        'Before a deploy read [kept](kept.md) and [gone b](gone_b.md).',
        '- [[gone_c]] — a wikilink',
      ],
      {
        'kept.md': memo('Kept'),
        'team/shared.md': memo('Shared'),
        'team/MEMORY.md': '- [Shared](shared.md) — shared hook\n- [Team gone](team_gone.md) — removed\n',
      },
    )
    const r = await health.fixAll('dead-pointer', 'remove-pointer')
    expect(r.message).toBe('Fixed 4 findings in 2 files')
    expect(r.failed).toEqual([])
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(
      '# Memory\nBefore a deploy read [kept](kept.md) and gone b.\n',
    )
    expect(readFileSync(join(dir, 'team/MEMORY.md'), 'utf8')).toBe('- [Shared](shared.md) — shared hook\n')
    const entries = await store.list({ runId: r.runId! })
    expect(entries.map((e) => e.path).sort()).toEqual(['MEMORY.md', 'team/MEMORY.md'])
  })
})
