import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { reply, text, toolUse } from '../../../test/fake-anthropic/server.js'
import { fakeModel } from '../../../test/helpers/model.js'
import { startTeamServer } from '../../../test/helpers/team-server.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { createAutoDream } from '../dream/auto-dream.js'
import { initExtractMemories } from '../extract/extract-memories.js'
import { ProposalStore } from '../review/proposals.js'
import { TeamApiClient } from '../team/api-client.js'
import { createSyncState, pullTeamMemory, pushTeamMemory } from '../team/sync.js'
import { HistoryStore } from './history-store.js'
import { diffLines } from './line-diff.js'
import { reconcileHistory } from './recorder.js'
import { restoreVersion, undoRun } from './restore.js'

const snapshotOf = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  )

function memDirWith(files: Record<string, string>) {
  const root = tempDir()
  const memoryDir = join(root, 'memory') + '/'
  mkdirSync(memoryDir)
  for (const [f, c] of Object.entries(files)) writeFile(join(memoryDir, f), c)
  return { root, memoryDir, history: new HistoryStore(join(root, 'app-data', 'history')) }
}

describe('memory history', () => {
  it('a dream that merges and deletes files is undone in one action, byte for byte', async () => {
    const files = {
      'MEMORY.md': '- [A](a.md) — a\n- [B](b.md) — b\n',
      'a.md': '---\nname: A\ndescription: a\ntype: feedback\n---\nUse the real DB.\n',
      'b.md': '---\nname: B\ndescription: b\ntype: feedback\n---\nNo mocks\r\n(since yesterday)  \n',
    }
    const { root, memoryDir, history } = memDirWith(files)
    await reconcileHistory(history, memoryDir, 'external') // baseline
    const before = snapshotOf(memoryDir)
    const { client } = await fakeModel([
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'a.md'),
          content: '---\nname: DB\ndescription: real DB, no mocks\ntype: feedback\n---\nMerged.\n',
        }),
        toolUse('Write', { file_path: join(memoryDir, 'b.md'), content: '' }),
        toolUse('Write', { file_path: join(memoryDir, 'MEMORY.md'), content: '- [DB](a.md) — real DB\n' }),
      ),
      reply(text('Merged A and B.')),
    ])
    const dream = createAutoDream({
      memoryDir,
      transcriptDir: join(root, 'none'),
      snapshotDir: join(root, 'app-data', 'snapshots'),
      client,
      enabled: () => ({ ok: true }),
      systemPrompt: async () => 's',
    })
    const outcome = await dream.executeAutoDream({ force: true })
    expect(outcome).toMatchObject({ type: 'improved', count: 2 })
    expect(existsSync(join(memoryDir, 'b.md'))).toBe(false)
    const run = await reconcileHistory(history, memoryDir, 'dream', { runId: 'dream-1' })
    expect(run.map((e) => [e.path, e.change])).toEqual([
      ['MEMORY.md', 'modify'],
      ['a.md', 'modify'],
      ['b.md', 'delete'],
    ])
    await undoRun(history, memoryDir, 'dream-1')
    expect(snapshotOf(memoryDir)).toEqual(before)
    for (const [f, c] of Object.entries(files))
      expect(Buffer.compare(readFileSync(join(memoryDir, f)), Buffer.from(c))).toBe(0)
  })

  it('a team pull that overwrites a local edit leaves the overwritten version restorable', async () => {
    const server = await startTeamServer()
    const token = await server.token('acme/shop')
    const a = memDirWith({})
    const b = memDirWith({})
    const deps = (dir: string) => ({
      api: new TeamApiClient({ baseUrl: server.url, token }),
      repo: 'acme/shop',
      teamDir: join(dir, 'team'),
      state: createSyncState(),
    })
    writeFile(join(a.memoryDir, 'team', 'policy.md'), 'server version\n')
    await pushTeamMemory(deps(a.memoryDir))
    writeFile(join(b.memoryDir, 'team', 'policy.md'), 'my local edit\n')
    const bd = {
      ...deps(b.memoryDir),
      beforeOverwrite: async (key: string) =>
        void (await reconcileHistory(b.history, b.memoryDir, 'external', { paths: [`team/${key}`] })),
    }
    await pullTeamMemory(bd)
    await reconcileHistory(b.history, b.memoryDir, 'team-pull', {
      paths: ['team/policy.md'],
      runId: 'pull-1',
    })
    expect(readFileSync(join(b.memoryDir, 'team', 'policy.md'), 'utf8')).toBe('server version\n')
    const versions = await b.history.list({ path: 'team/policy.md' })
    expect(versions.map((v) => v.author)).toEqual(['external', 'team-pull'])
    await restoreVersion(b.history, b.memoryDir, 'team/policy.md', versions[0]!.id)
    expect(readFileSync(join(b.memoryDir, 'team', 'policy.md'), 'utf8')).toBe('my local edit\n')
    expect((await b.history.list({ path: 'team/policy.md' })).at(-1)).toMatchObject({ author: 'user' })
  })

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
  it('extraction writes nothing until approval; approval writes exactly the proposal', async () => {
    const { root, memoryDir } = memDirWith({ 'MEMORY.md': '- [Old](old.md) — o\n' })
    const proposals = new ProposalStore(join(root, 'app-data', 'proposals'))
    const { client } = await fakeModel([
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'db.md'),
          content: '---\nname: DB\ndescription: real DB\ntype: feedback\n---\nx\n',
        }),
        toolUse('Edit', {
          file_path: join(memoryDir, 'MEMORY.md'),
          old_string: '- [Old](old.md) — o\n',
          new_string: '- [Old](old.md) — o\n- [DB](db.md) — real DB\n',
        }),
      ),
      reply(toolUse('Read', { file_path: join(memoryDir, 'MEMORY.md') })),
      reply(text('Saved the DB rule.')),
    ])
    const events: unknown[] = []
    const ex = initExtractMemories({
      memoryDir,
      client,
      gates: () => [],
      systemPrompt: async () => 's',
      review: { enabled: () => true, proposals },
      onEvent: (e) => events.push(e),
    })
    const before = snapshotOf(memoryDir)
    await ex.executeExtractMemories({
      messages: [
        { uuid: 'u', role: 'user', content: [{ type: 'text', text: 'real DB please' }] },
        { uuid: 'a', role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      ],
    })
    expect(snapshotOf(memoryDir)).toEqual(before)
    expect(events.at(-1)).toMatchObject({
      type: 'proposed',
      paths: ['db.md', 'MEMORY.md'].sort((x, y) => x.localeCompare(y)),
    })
    const [p] = await proposals.list()
    expect(p!.reason).toBe('Saved the DB rule.')
    expect(p!.files.find((f) => f.path === 'MEMORY.md')).toMatchObject({
      before: '- [Old](old.md) — o\n',
      after: '- [Old](old.md) — o\n- [DB](db.md) — real DB\n',
    })
    await proposals.approve(p!.id, memoryDir)
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('[DB](db.md)')
    expect(existsSync(join(memoryDir, 'db.md'))).toBe(true)
    expect(await proposals.list()).toEqual([])
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
})
