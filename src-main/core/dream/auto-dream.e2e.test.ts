import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { failWith, reply, text, toolUse } from '../../../test/fake-anthropic/server.js'
import { fakeModel } from '../../../test/helpers/model.js'
import { dreamSetup as setup, setDreamLock as setLock } from '../../../test/helpers/dream.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'

import { HealthChecker } from '../health/health-checker.js'

import { lockPath, readLastConsolidatedAt } from './lock.js'
import { loadSnapshot, restoreSnapshot } from './snapshot.js'
import { ProposalStore } from '../review/proposals.js'

const HOUR = 3_600_000

describe('autoDream runs', () => {
  it('in review mode, a run that changes nothing proposes nothing and says so', async () => {
    const { client } = await fakeModel([reply(text('Everything is already tidy.'))])
    const root = tempDir()
    const proposals = new ProposalStore(join(root, 'proposals'))
    const { dream, memoryDir, events } = setup(client, { review: { enabled: () => true, proposals } })
    writeFile(
      join(memoryDir, 'deploy.md'),
      '---\nname: Deploy\ndescription: ship it\ntype: project\n---\nShip.\n',
    )
    const r = await dream.executeAutoDream({ force: true })
    expect(r).toMatchObject({
      type: 'improved',
      count: 0,
      summary: 'Nothing to consolidate: no memory changed',
    })
    expect(await proposals.list()).toEqual([])
    expect(events.some((e) => e.type === 'proposed')).toBe(false)
  })

  it("a memory written back as it was, in the newer clients' format, is no change: its modified stamp stays", async () => {
    const deploy =
      '---\nname: deploy\ndescription: ship it\nmetadata:\n  type: project\n  modified: 2026-11-01T09:00:00.000Z\n---\n\nShip.\n'
    for (const review of [true, false]) {
      const { fake, client } = await fakeModel()
      const proposals = new ProposalStore(join(tempDir(), 'proposals'))
      const { dream, memoryDir, events } = setup(
        client,
        review ? { review: { enabled: () => true, proposals } } : {},
      )
      writeFile(join(memoryDir, 'deploy.md'), deploy)
      // The model rewrites the file as it read it, and once more without its stamp.
      fake.enqueue(
        reply(toolUse('Write', { file_path: join(memoryDir, 'deploy.md'), content: deploy })),
        reply(
          toolUse('Write', {
            file_path: join(memoryDir, 'deploy.md'),
            content: deploy.replace('  modified: 2026-11-01T09:00:00.000Z\n', ''),
          }),
        ),
        reply(text('Everything is already tidy.')),
      )
      const r = await dream.executeAutoDream({ force: true })
      expect(r).toMatchObject({
        type: 'improved',
        count: 0,
        summary: 'Nothing to consolidate: no memory changed',
      })
      expect(readFileSync(join(memoryDir, 'deploy.md'), 'utf8')).toBe(deploy)
      expect(await proposals.list()).toEqual([])
      expect(events.some((e) => e.type === 'proposed')).toBe(false)
    }
  })

  it('a run that only tidies MEMORY.md says so, not that nothing changed', async () => {
    const { fake, client } = await fakeModel()
    const { dream, memoryDir } = setup(client)
    writeFile(
      join(memoryDir, 'deploy.md'),
      '---\nname: Deploy\ndescription: ship it\ntype: project\n---\nShip.\n',
    )
    writeFile(join(memoryDir, 'MEMORY.md'), '- [Deploy](deploy.md) — ship it\n- [Gone](gone.md) — was here\n')
    fake.enqueue(
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'MEMORY.md'),
          content: '- [Deploy](deploy.md) — ship it\n',
        }),
      ),
      reply(text('Dropped a dead pointer.')),
    )
    const r = await dream.executeAutoDream({ force: true })
    expect(r).toMatchObject({
      type: 'improved',
      count: 0,
      summary: 'Tidied the index (MEMORY.md); no memory changed',
      files: [{ path: 'MEMORY.md', change: 'modified' }],
    })
  })

  it('merges and deletes files, reports "Improved N memories", and the snapshot undoes it byte for byte', async () => {
    const { fake, client } = await fakeModel()
    const { dream, memoryDir, events, root } = setup(client)
    const before = {
      'MEMORY.md':
        '- [DB a](db_a.md) — real DB\n- [DB b](db_b.md) — real database\n- [Deploy](deploy.md) — ship it\n',
      'db_a.md': '---\nname: DB a\ndescription: real DB\ntype: feedback\n---\nUse the real DB.\n',
      'db_b.md':
        '---\nname: DB b\ndescription: real database\ntype: feedback\n---\nNo mocks, since yesterday.\n',
      'deploy.md': '---\nname: Deploy\ndescription: ship it\ntype: project\n---\nmake ship\n',
    }
    for (const [f, c] of Object.entries(before)) writeFile(join(memoryDir, f), c)
    fake.enqueue(
      reply(toolUse('Bash', { command: 'ls' }), toolUse('Read', { file_path: join(memoryDir, 'MEMORY.md') })),
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'db_a.md'),
          content:
            '---\nname: Real DB\ndescription: Integration tests hit the real DB\ntype: feedback\n---\nUse the real DB; no mocks (since 2026-12-01).\n',
        }),
        toolUse('Write', { file_path: join(memoryDir, 'db_b.md'), content: '' }),
        toolUse('Write', {
          file_path: join(memoryDir, 'MEMORY.md'),
          content:
            '- [Real DB](db_a.md) — integration tests hit the real DB\n- [Deploy](deploy.md) — ship it\n',
        }),
        toolUse('Bash', { command: `rm ${join(memoryDir, 'deploy.md')}` }),
      ),
      reply(text('Merged the two DB memories.')),
    )
    const outcome = await dream.executeAutoDream()
    expect(outcome).toMatchObject({ type: 'improved', count: 2, summary: 'Improved 2 memories' })
    if (outcome.type !== 'improved') throw new Error('expected improved')
    expect(outcome.files).toEqual([
      { path: 'db_a.md', change: 'modified' },
      { path: 'db_b.md', change: 'deleted' },
      { path: 'MEMORY.md', change: 'modified' },
    ])
    expect(existsSync(join(memoryDir, 'db_b.md'))).toBe(false)
    expect(existsSync(join(memoryDir, 'deploy.md'))).toBe(true) // rm was refused
    expect(events.map((e) => e.type)).toEqual(['started', 'improved'])
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Phase 1 — Orient')
    expect(Date.now() - (await readLastConsolidatedAt(memoryDir))).toBeLessThan(60_000)

    const snap = await loadSnapshot(join(root, 'app-data', 'snapshots'), outcome.snapshotId)
    await restoreSnapshot(snap)
    for (const [f, c] of Object.entries(before)) expect(readFileSync(join(memoryDir, f), 'utf8')).toBe(c)
    expect(
      readdirSync(memoryDir)
        .filter((f) => f.endsWith('.md'))
        .sort(),
    ).toEqual(Object.keys(before).sort())
  })

  it('gets the health findings as input and says which ones its changes fixed', async () => {
    const { fake, client } = await fakeModel()
    const health: { checker?: HealthChecker } = {}
    const { dream, memoryDir } = setup(client, {
      healthFindings: async () => (await health.checker!.check()).findings,
    })
    health.checker = new HealthChecker({ memoryDir })
    const body =
      'Integration tests must hit the real database and never mocks because a mocked migration once hid a broken deploy'
    writeFile(
      join(memoryDir, 'MEMORY.md'),
      '- [DB a](db_a.md) — real DB\n- [DB b](db_b.md) — real database\n- [Gone](gone.md) — x\n',
    )
    writeFile(
      join(memoryDir, 'db_a.md'),
      `---\nname: DB a\ndescription: real DB\ntype: feedback\n---\n${body}\n`,
    )
    writeFile(
      join(memoryDir, 'db_b.md'),
      `---\nname: DB b\ndescription: real database\ntype: feedback\n---\n${body}.\n`,
    )
    fake.enqueue(
      reply(
        toolUse('Write', { file_path: join(memoryDir, 'db_b.md'), content: '' }),
        toolUse('Write', {
          file_path: join(memoryDir, 'MEMORY.md'),
          content: '- [DB a](db_a.md) — real DB\n- [Gone](gone.md) — x\n',
        }),
      ),
      reply(text('Merged the DB memories.')),
    )
    const outcome = await dream.executeAutoDream()
    const prompt = JSON.stringify(fake.requests[0]!.body.messages)
    expect(prompt).toContain('## Found by a health check')
    expect(prompt).toContain('db_a.md: Says nearly the same as db_b.md')
    expect(prompt).toContain('MEMORY.md: Points at gone.md, which does not exist')
    if (outcome.type !== 'improved') throw new Error(`expected improved, got ${outcome.type}`)
    expect(outcome.fixed?.map((f) => f.split(' (')[0])).toEqual(['db_a.md: Says nearly the same as db_b.md'])
  })

  it('a failed run leaves the last-consolidated time unchanged', async () => {
    const { client } = await fakeModel([failWith(500)])
    const { dream, memoryDir } = setup(client)
    setLock(memoryDir, 999_999_999, 48 * HOUR)
    const before = statSync(lockPath(memoryDir)).mtimeMs
    expect(await dream.executeAutoDream()).toMatchObject({ type: 'failed' })
    // utimes takes float seconds: equal to the millisecond
    expect(Math.abs(statSync(lockPath(memoryDir)).mtimeMs - before)).toBeLessThan(1)
  })

  it('a failed first run leaves no lock behind; --force skips the gates but not the model', async () => {
    const { client } = await fakeModel([failWith(500)])
    const { dream, memoryDir } = setup(client, {}, 0)
    expect(await dream.executeAutoDream({ force: true })).toMatchObject({ type: 'failed' })
    expect(existsSync(lockPath(memoryDir))).toBe(false)
    expect(await readLastConsolidatedAt(memoryDir)).toBe(0)
  })
})

describe('autoDream gates, each on its own', () => {
  it('a live lock is respected', async () => {
    const { fake, client } = await fakeModel()
    const { dream, memoryDir } = setup(client, { lock: { isAlive: () => true }, minHours: 0 })
    setLock(memoryDir, 4242, 10 * 60_000) // fresh, and its holder still runs
    expect(await dream.executeAutoDream()).toMatchObject({
      gate: 'locked',
      reason: expect.stringContaining('pid 4242'),
    })
    expect(readFileSync(lockPath(memoryDir), 'utf8').trim()).toBe('4242')
    expect(fake.requests).toHaveLength(0)
  })
})
