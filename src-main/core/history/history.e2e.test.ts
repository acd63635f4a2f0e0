import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { reply, text, toolUse } from '../../../test/fake-anthropic/server.js'
import { fakeModel } from '../../../test/helpers/model.js'
import { startTeamServer } from '../../../test/helpers/team-server.js'
import { memDirWith, snapshotOf } from '../../../test/helpers/history.js'
import { writeFile } from '../../../test/helpers/temp-env.js'
import { createAutoDream } from '../dream/auto-dream.js'
import { initExtractMemories } from '../extract/extract-memories.js'
import { ProposalStore } from '../review/proposals.js'
import { TeamApiClient } from '../team/api-client.js'
import { createSyncState, pullTeamMemory, pushTeamMemory } from '../team/sync.js'

import { reconcileHistory } from './recorder.js'
import { restoreVersion, undoRun } from './restore.js'

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

  it('undoing a run takes out only its own changes: what someone wrote since stays theirs', async () => {
    const { memoryDir, history } = memDirWith({
      'MEMORY.md': '# Memory\n- [A](a.md) — a\n- [Old](old.md) — old\n',
      'a.md': '---\nname: A\ndescription: a\ntype: feedback\n---\nUse the real DB.\n',
      'old.md': '---\nname: Old\ndescription: old\ntype: project\n---\nold\n',
      'c.md': '---\nname: C\ndescription: c\ntype: project\n---\none\ntwo\n',
    })
    await reconcileHistory(history, memoryDir, 'external')
    // The run: a new memory and its pointer, a line added to a.md, c.md changed, old.md and its
    // pointer deleted.
    writeFile(join(memoryDir, 'db.md'), '---\nname: DB\ndescription: db\ntype: feedback\n---\nrun text\n')
    writeFile(join(memoryDir, 'MEMORY.md'), '# Memory\n- [A](a.md) — a\n- [DB](db.md) — db\n')
    writeFile(
      join(memoryDir, 'a.md'),
      '---\nname: A\ndescription: a\ntype: feedback\n---\nUse the real DB.\n\nAlso in CI.\n',
    )
    writeFile(join(memoryDir, 'c.md'), '---\nname: C\ndescription: c\ntype: project\n---\none\nTWO\n')
    rmSync(join(memoryDir, 'old.md'))
    await reconcileHistory(history, memoryDir, 'extraction', { runId: 'extract-1' })
    // Then the user: notes of their own in the new memory, a line of their own at the end of the
    // index, the line the run changed in c.md changed again, and old.md written again.
    const db = '---\nname: DB\ndescription: db\ntype: feedback\n---\nrun text\nMy own notes.\n'
    const c = '---\nname: C\ndescription: c\ntype: project\n---\none\nTWO, really\n'
    writeFile(join(memoryDir, 'db.md'), db)
    writeFile(join(memoryDir, 'MEMORY.md'), '# Memory\n- [A](a.md) — a\n- [DB](db.md) — db\n- my own line\n')
    writeFile(join(memoryDir, 'c.md'), c)
    writeFile(join(memoryDir, 'old.md'), 'new old\n')
    await reconcileHistory(history, memoryDir, 'user')

    const outcome = await undoRun(history, memoryDir, 'extract-1')
    // What the run changed where nothing changed since is taken out (a.md, old.md's pointer); a
    // file changed since stays as it is, and so does the pointer to the memory kept.
    expect(readFileSync(join(memoryDir, 'a.md'), 'utf8')).toBe(
      '---\nname: A\ndescription: a\ntype: feedback\n---\nUse the real DB.\n',
    )
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(
      '# Memory\n- [A](a.md) — a\n- [Old](old.md) — old\n- [DB](db.md) — db\n- my own line\n',
    )
    expect(readFileSync(join(memoryDir, 'db.md'), 'utf8')).toBe(db)
    expect(readFileSync(join(memoryDir, 'c.md'), 'utf8')).toBe(c)
    expect(readFileSync(join(memoryDir, 'old.md'), 'utf8')).toBe('new old\n')
    expect(outcome.undone.sort()).toEqual(['MEMORY.md', 'a.md'])
    expect(outcome.kept).toEqual([
      { path: 'c.md', reason: 'changed since the run, where the run changed it' },
      { path: 'db.md', reason: 'changed since the run created it' },
      { path: 'old.md', reason: 'written again since the run deleted it' },
    ])
    // Undone twice: nothing more to do, nothing reported as changed.
    const snapshot = snapshotOf(memoryDir)
    expect(await undoRun(history, memoryDir, 'extract-1')).toMatchObject({ undone: [] })
    expect(snapshotOf(memoryDir)).toEqual(snapshot)
    // Nothing the user wrote is lost, and the run's versions stay in history.
    expect((await history.list({ path: 'db.md' })).map((e) => e.runId ?? null)).toEqual(['extract-1', null])
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
})
