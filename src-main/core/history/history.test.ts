import { linkSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memDirWith, snapshotOf } from '../../../test/helpers/history.js'

import { ProposalStore } from '../review/proposals.js'
import { HistoryStore } from './history-store.js'
import { diffLines } from './line-diff.js'
import { reconcileHistory } from './recorder.js'
import { restoreVersion, undoRun } from './restore.js'
import { deleteMemory } from '../store/memory-files.js'
import type { RecordedWrite } from '../store/recorded-write.js'

describe('memory history', () => {
  it('a write over a version nobody recorded keeps that version in history first', async () => {
    const { memoryDir, history } = memDirWith({ 'a.md': 'one\n' })
    await reconcileHistory(history, memoryDir, 'external')
    // Edited while no app watched, then overwritten by a recorded writer (CLI, hook, MCP).
    writeFileSync(join(memoryDir, 'a.md'), 'two\n')
    await history.recordChange({ path: 'a.md', author: 'mcp', before: 'two\n', after: 'three\n' })
    const entries = await history.list({ path: 'a.md' })
    expect(entries.map((e) => e.author).sort()).toEqual(['external', 'external', 'mcp'])
    const versions = await Promise.all(entries.map((e) => history.blob(e.after!)))
    expect(versions.sort()).toEqual(['one\n', 'three\n', 'two\n'])
  })

  it('opening a workspace again records only what changed, in one append, and another process sees it', async () => {
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`m${i}.md`, `memory ${i}\n`]))
    const { root, memoryDir, history } = memDirWith(files)
    const baseline = await reconcileHistory(history, memoryDir, 'external')
    expect(baseline).toHaveLength(300)
    expect(new Set(baseline.map((e) => e.id)).size).toBe(300)
    expect(await reconcileHistory(history, memoryDir, 'external')).toEqual([])
    writeFileSync(join(memoryDir, 'm7.md'), 'memory 7, edited while no app ran\n')
    const { rmSync } = await import('node:fs')
    rmSync(join(memoryDir, 'm8.md'))
    const changed = await reconcileHistory(history, memoryDir, 'external')
    expect(changed.map((e) => [e.path, e.change])).toEqual([
      ['m7.md', 'modify'],
      ['m8.md', 'delete'],
    ])
    // A second process reading the same log sees every entry, ids in order.
    const other = new HistoryStore(join(root, 'app-data', 'history'))
    const all = await other.list()
    expect(all).toHaveLength(302)
    expect(all.map((e) => e.id)).toEqual(Array.from({ length: 302 }, (_, i) => i + 1))
    expect(await reconcileHistory(other, memoryDir, 'external')).toEqual([])
  })

  it('does not record a stale observation: a file written and recorded after it was read stays as recorded', async () => {
    const { memoryDir, history } = memDirWith({ 'a.md': 'one\n' })
    await reconcileHistory(history, memoryDir, 'external')
    // Observed missing, then written and recorded by an extraction before the observation is recorded.
    const stale = [
      { path: 'new.md', content: null },
      { path: 'a.md', content: 'one\n' },
    ]
    writeFileSync(join(memoryDir, 'new.md'), 'from the extraction\n')
    await history.recordChange({
      path: 'new.md',
      author: 'extraction',
      before: null,
      after: 'from the extraction\n',
    })
    const recorded = await history.recordObservedAll(stale, 'external', {
      reread: async (p) => readFileSync(join(memoryDir, p), 'utf8'),
    })
    expect(recorded).toEqual([])
    expect((await history.list({ path: 'new.md' })).map((e) => [e.author, e.change])).toEqual([
      ['extraction', 'create'],
    ])
  })

  it('restores a deleted memory and survives a torn log line', async () => {
    const { root, memoryDir, history } = memDirWith({ 'x.md': 'keep me\n' })
    await reconcileHistory(history, memoryDir, 'external')
    const { rmSync, appendFileSync } = await import('node:fs')
    rmSync(join(memoryDir, 'x.md'))
    const [del] = await reconcileHistory(history, memoryDir, 'external', { paths: ['x.md'] })
    expect(del).toMatchObject({ change: 'delete' })
    appendFileSync(join(root, 'app-data', 'history', 'log.jsonl'), '{"id": 99, "pa')
    const reopened = new HistoryStore(join(root, 'app-data', 'history'))
    await restoreVersion(reopened, memoryDir, 'x.md', del!.id)
    expect(readFileSync(join(memoryDir, 'x.md'), 'utf8')).toBe('keep me\n')
  })

  it('restoring a deleted memory whose pointer shared a line with a comment puts that line back as it was', async () => {
    const index = '# Memory\n<!--\nold notes\n--> - [X](x.md) — x\n- [A](a.md) — a\n'
    const { root, memoryDir, history } = memDirWith({ 'x.md': 'keep me\n', 'MEMORY.md': index })
    await reconcileHistory(history, memoryDir, 'external')
    const record: RecordedWrite = async (abs, write) => {
      const out = await write()
      await history.recordChange({ path: abs.slice(memoryDir.length), author: 'user', ...out })
    }
    await deleteMemory(memoryDir, 'x.md', undefined, { record })
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(
      '# Memory\n<!--\nold notes\n-->\n- [A](a.md) — a\n',
    )
    const del = (await history.list({ path: 'x.md' })).at(-1)!
    await restoreVersion(new HistoryStore(join(root, 'app-data', 'history')), memoryDir, 'x.md', del.id)
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(index)
  })

  it('a deleted memory does not come back beside another spelling of it made since (one file on macOS and Windows)', async () => {
    const { memoryDir, history } = memDirWith({ 'deploy.md': 'old\n' })
    await reconcileHistory(history, memoryDir, 'external')
    const { rmSync } = await import('node:fs')
    rmSync(join(memoryDir, 'deploy.md'))
    writeFileSync(join(memoryDir, 'Deploy.md'), 'new\n')
    await reconcileHistory(history, memoryDir, 'external', { paths: ['deploy.md', 'Deploy.md'] })
    const del = (await history.list({ path: 'deploy.md' })).at(-1)!
    expect(del.change).toBe('delete')
    await expect(restoreVersion(history, memoryDir, 'deploy.md', del.id)).rejects.toMatchObject({
      code: 'INVALID_NAME',
      message:
        'deploy.md cannot be written beside Deploy.md: deploy.md and Deploy.md would be one file on macOS and Windows',
    })
    // An undo of the delete keeps it gone, and says why.
    writeFileSync(join(memoryDir, 'other.md'), 'o\n')
    rmSync(join(memoryDir, 'Deploy.md'))
    writeFileSync(join(memoryDir, 'DEPLOY.md'), 'newer\n')
    await reconcileHistory(history, memoryDir, 'external')
    rmSync(join(memoryDir, 'other.md'))
    await reconcileHistory(history, memoryDir, 'user', { paths: ['other.md'], runId: 'clean-1' })
    writeFileSync(join(memoryDir, 'Other.md'), 'mine\n')
    expect(await undoRun(history, memoryDir, 'clean-1')).toEqual({
      undone: [],
      kept: [
        {
          path: 'other.md',
          reason:
            'other.md cannot be written beside Other.md: other.md and Other.md would be one file on macOS and Windows',
        },
      ],
    })
    expect(snapshotOf(memoryDir)).toEqual({ 'DEPLOY.md': 'newer\n', 'Other.md': 'mine\n' })
  })

  it('keeps a bounded history: old versions and unreferenced blobs are pruned', async () => {
    const { root, memoryDir } = memDirWith({ 'x.md': 'v0\n' })
    const history = new HistoryStore(join(root, 'h'), { maxVersionsPerFile: 3, maxAgeMs: 1e12 })
    for (let i = 1; i <= 6; i++) {
      writeFileSync(join(memoryDir, 'x.md'), `v${i}\n`)
      await reconcileHistory(history, memoryDir, 'user', { paths: ['x.md'] })
    }
    // Just-written blobs are kept a while (another process may be about to reference one).
    expect((await history.prune()).removedBlobs).toBe(0)
    const r = await history.prune(Date.now() + 3_600_000)
    expect(r.removedEntries).toBe(0) // already pruned above
    expect((await history.list()).length).toBe(3)
    expect(readdirSync(join(root, 'h', 'objects')).length).toBeLessThanOrEqual(4)
  })

  it('a process that slept through two prunes reads the log again, even under its old inode number', async () => {
    const dir = join(memDirWith({}).root, 'h')
    const change = (path: string, i: number) => ({
      path,
      author: 'user' as const,
      before: i ? `${path} ${i - 1}` : null,
      after: `${path} ${i}`,
    })
    const writer = new HistoryStore(dir, { maxVersionsPerFile: 2, maxAgeMs: 1e12 })
    for (let i = 0; i < 4; i++) await writer.recordChange(change('a.md', i))
    await writer.recordChange(change('b.md', 0))
    const sleeper = new HistoryStore(dir)
    await sleeper.load()
    // Keep the log's inode alive: the filesystem may hand its number to a later log.
    const log = join(dir, 'log.jsonl')
    linkSync(log, join(dir, 'old-inode'))
    await writer.prune()
    for (let i = 0; i < 2; i++) await writer.recordChange(change('a-memory-with-a-longer-name.md', i))
    // The pruned log, now under the old inode number, longer than what the sleeper read.
    writeFileSync(join(dir, 'old-inode'), readFileSync(log))
    renameSync(join(dir, 'old-inode'), log)
    const last = Math.max(...(await writer.list()).map((e) => e.id))
    const entry = await sleeper.recordChange(change('c.md', 0))
    const ids = (await new HistoryStore(dir).list()).map((e) => e.id)
    expect(entry!.id).toBe(last + 1)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('a reader asking while the same process appends sees each entry once (the UI polls history while the watcher records)', async () => {
    const { history } = memDirWith({})
    const seen: number[][] = []
    const reads: Promise<void>[] = []
    const poll = () =>
      reads.push(
        (async () => {
          for (let i = 0; i < 40; i++) seen.push((await history.list()).map((e) => e.id))
        })(),
      )
    poll()
    poll()
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        history.recordChange({
          path: `m${i}.md`,
          author: 'external',
          before: `old ${i}\n`,
          after: `new ${i}\n`,
        }),
      ),
    )
    await Promise.all(reads)
    for (const ids of [...seen, (await history.list()).map((e) => e.id)])
      expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1))
    expect(await history.list()).toHaveLength(60)
    const modifies = (await history.list()).filter((e) => e.change === 'modify').map((e) => e.path)
    expect(new Set(modifies).size).toBe(30)
  })

  it('"Restore" clicked twice at once brings the deleted memory back once, with its index line once', async () => {
    const { memoryDir, history } = memDirWith({
      'MEMORY.md': '- [A](a.md) — a\n',
      'a.md': '---\nname: A\ndescription: a\ntype: project\n---\nA\n',
    })
    const before = snapshotOf(memoryDir)
    await reconcileHistory(history, memoryDir, 'external')
    const record: RecordedWrite = async (abs, write) => {
      const out = await write()
      await history.recordChange({ path: abs.slice(memoryDir.length), author: 'user', ...out })
    }
    await deleteMemory(memoryDir, 'a.md', undefined, { record })
    const gone = (await history.list({ path: 'a.md' })).find((e) => e.change === 'delete')!
    await Promise.all([
      restoreVersion(history, memoryDir, 'a.md', gone.id),
      restoreVersion(history, memoryDir, 'a.md', gone.id),
    ])
    expect(snapshotOf(memoryDir)).toEqual(before)
  })

  it('"Undo" clicked twice at once undoes the run once; the second finds nothing left to undo, not a file changed by someone', async () => {
    const { memoryDir, history } = memDirWith({ 'MEMORY.md': '- [A](a.md) — a\n', 'a.md': 'A\n' })
    await reconcileHistory(history, memoryDir, 'external')
    writeFileSync(join(memoryDir, 'MEMORY.md'), '')
    writeFileSync(join(memoryDir, 'a.md'), 'A, fixed\n')
    await reconcileHistory(history, memoryDir, 'user', { paths: ['MEMORY.md', 'a.md'], runId: 'fix-1' })
    const both = await Promise.all([
      undoRun(history, memoryDir, 'fix-1'),
      undoRun(history, memoryDir, 'fix-1'),
    ])
    expect(snapshotOf(memoryDir)).toEqual({ 'MEMORY.md': '- [A](a.md) — a\n', 'a.md': 'A\n' })
    expect(both.flatMap((o) => o.undone).sort()).toEqual(['MEMORY.md', 'a.md'])
    expect(both.flatMap((o) => o.kept)).toEqual([])
  })

  it('diffs lines', () => {
    expect(diffLines('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'add', text: 'B' },
      { op: 'same', text: 'c' },
      { op: 'add', text: 'd' },
    ])
  })
})

describe('review mode', () => {
  it('"Approve" clicked twice at once applies the proposal once; the second finds it decided', async () => {
    const { root, memoryDir } = memDirWith({ 'a.md': 'A\n' })
    const proposals = new ProposalStore(join(root, 'app-data', 'proposals'))
    const p = await proposals.create({
      author: 'dream',
      reason: 'merge',
      files: [
        { path: 'a.md', before: 'A\n', after: 'A and B\n' },
        { path: 'b.md', before: null, after: 'B\n' },
      ],
    })
    const both = await Promise.allSettled([
      proposals.approve(p.id, memoryDir),
      proposals.approve(p.id, memoryDir),
    ])
    expect(both.map((o) => o.status)).toEqual(['fulfilled', 'rejected'])
    expect((both[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'NOT_FOUND' })
    expect(snapshotOf(memoryDir)).toEqual({ 'a.md': 'A and B\n', 'b.md': 'B\n' })
    expect(await proposals.list()).toEqual([])
  })

  it("an edit approved from the inbox (a text field's LF) keeps a CRLF file's line breaks", async () => {
    const crlf = '---\r\nname: A\r\ndescription: a\r\ntype: user\r\n---\r\n\r\nOld.\r\n'
    const { root, memoryDir } = memDirWith({ 'a.md': crlf })
    const proposals = new ProposalStore(join(root, 'app-data', 'proposals'))
    const p = await proposals.create({
      author: 'dream',
      reason: 'tidy',
      files: [{ path: 'a.md', before: crlf, after: crlf.replace('Old.', 'Proposed.') }],
    })
    await proposals.approve(p.id, memoryDir, {
      'a.md': '---\nname: A\ndescription: a\ntype: user\n---\n\nEdited.\nTwo lines.\n',
    })
    expect(readFileSync(join(memoryDir, 'a.md'), 'utf8')).toBe(
      '---\r\nname: A\r\ndescription: a\r\ntype: user\r\n---\r\n\r\nEdited.\r\nTwo lines.\r\n',
    )
  })

  it('rejection leaves no trace in the memory dir; a stale proposal is refused', async () => {
    const { root, memoryDir } = memDirWith({ 'a.md': 'A\n' })
    const proposals = new ProposalStore(join(root, 'app-data', 'proposals'))
    const before = snapshotOf(memoryDir)
    const p = await proposals.create({
      author: 'dream',
      reason: 'merge',
      files: [
        { path: 'a.md', before: 'A\n', after: null },
        { path: 'b.md', before: null, after: 'B\n' },
      ],
    })
    await proposals.reject(p.id)
    expect(snapshotOf(memoryDir)).toEqual(before)
    expect(readdirSync(memoryDir)).toEqual(['a.md'])
    const q = await proposals.create({
      author: 'dream',
      reason: 'merge',
      files: [{ path: 'a.md', before: 'A\n', after: 'A2\n' }],
    })
    writeFileSync(join(memoryDir, 'a.md'), 'changed meanwhile\n')
    await expect(proposals.approve(q.id, memoryDir)).rejects.toThrow('changed on disk')
    expect(readFileSync(join(memoryDir, 'a.md'), 'utf8')).toBe('changed meanwhile\n')
    writeFileSync(join(memoryDir, 'a.md'), 'A\n')
    await proposals.approve(q.id, memoryDir, { 'a.md': 'edited by the user\n' })
    expect(readFileSync(join(memoryDir, 'a.md'), 'utf8')).toBe('edited by the user\n')
  })
  it('an approval is applied whole or not at all: a change on disk halfway through puts back what was written', async () => {
    const { root, memoryDir } = memDirWith({ 'a.md': 'A\n', 'b.md': 'B\n' })
    const proposals = new ProposalStore(join(root, 'app-data', 'proposals'))
    const p = await proposals.create({
      author: 'dream',
      reason: 'merge b into a',
      files: [
        { path: 'a.md', before: 'A\n', after: 'A and B\n' },
        { path: 'b.md', before: 'B\n', after: null },
        { path: 'c.md', before: null, after: 'C\n' },
      ],
    })
    // Another process edits b.md after the approval checked it and wrote a.md.
    const writes: string[] = []
    const record: RecordedWrite = async (abs, write) => {
      const { after } = await write()
      writes.push(`${basename(abs)}=${after === null ? 'deleted' : after.trim()}`)
      if (writes.length === 1) writeFileSync(join(memoryDir, 'b.md'), 'B, edited by the user\n')
    }
    await expect(proposals.approve(p.id, memoryDir, {}, record)).rejects.toThrow('changed on disk')
    expect(readFileSync(join(memoryDir, 'a.md'), 'utf8')).toBe('A\n')
    expect(readFileSync(join(memoryDir, 'b.md'), 'utf8')).toBe('B, edited by the user\n')
    expect(readdirSync(memoryDir).sort()).toEqual(['a.md', 'b.md'])
    // The put-back went through the same recorder (history sees it), and the proposal stays to reject.
    expect(writes).toEqual(['a.md=A and B', 'a.md=A'])
    expect((await proposals.list()).map((x) => x.id)).toEqual([p.id])
  })

  it('approval names a new memory by the rule that holds when it is approved: nothing is written when it no longer holds', async () => {
    const { root, memoryDir } = memDirWith({ 'a.md': 'A\n', 'team/ops/a.md': 'ops\n' })
    const proposals = new ProposalStore(join(root, 'app-data', 'proposals'))
    const before = snapshotOf(memoryDir)
    // Proposed while these names were free; since then team/ops/ exists, and notes.md is a file.
    const twin = await proposals.create({
      author: 'extraction',
      reason: 'new',
      files: [
        { path: 'a.md', before: 'A\n', after: 'A2\n' },
        { path: 'team/Ops/b.md', before: null, after: 'B\n' },
      ],
    })
    await expect(proposals.approve(twin.id, memoryDir)).rejects.toMatchObject({
      code: 'INVALID_NAME',
      message: expect.stringContaining('team/Ops/b.md cannot join team/ops/a.md'),
    })
    writeFileSync(join(memoryDir, 'notes.md'), 'a file\n')
    const below = await proposals.create({
      author: 'extraction',
      reason: 'new',
      files: [
        { path: 'a.md', before: 'A\n', after: 'A2\n' },
        { path: 'notes.md/b.md', before: null, after: 'B\n' },
      ],
    })
    await expect(proposals.approve(below.id, memoryDir)).rejects.toMatchObject({
      code: 'INVALID_NAME',
      message: 'notes.md/b.md: a folder on its path is a file',
    })
    // All or nothing: a.md was not written either.
    expect(snapshotOf(memoryDir)).toEqual({ ...before, 'notes.md': 'a file\n' })
  })
})
