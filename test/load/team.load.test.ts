import { describe, expect, it } from 'vitest'
import { runTeamLoad, type TeamLoadOptions } from './team-load.js'

// A shorter run of bench/team-load: the same clients, faults and kill, fewer rounds.
const SHORT: Omit<TeamLoadOptions, 'databaseUrl' | 'instances'> = {
  clients: 8,
  rounds: 12,
  sharedKeys: 3,
  ownKeys: 2,
  faults: { error500: 0.05, dropBefore: 0.04, dropAfter: 0.04, maxDelayMs: 15 },
  killAt: 0.4,
  downMs: 1200,
  seed: 5,
}

function expectEveryEditAccountedFor(r: Awaited<ReturnType<typeof runTeamLoad>>) {
  expect(r.killed).toBe(true)
  expect(r.edits).toBe(SHORT.clients * SHORT.rounds)
  // The network really was hostile: every kind of fault happened.
  expect(r.injected.error500).toBeGreaterThan(0)
  expect(r.injected.dropBefore).toBeGreaterThan(0)
  expect(r.injected.dropAfter).toBeGreaterThan(0)
  expect(r.unaccounted).toEqual([])
  expect(r.diverged).toEqual([])
  expect(r.ownKeysWrong).toEqual([])
}

describe('team memory under concurrent load and faults', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'two instances on one PostgreSQL, 8 clients, one instance killed: all converge and no edit is unaccounted for',
    async () => {
      const r = await runTeamLoad({ ...SHORT, databaseUrl: process.env.TEST_DATABASE_URL, instances: 2 })
      expectEveryEditAccountedFor(r)
    },
    120_000,
  )

  it('one instance on SQLite, killed and restarted mid-run: the same guarantees', async () => {
    const r = await runTeamLoad({ ...SHORT, instances: 1 })
    expectEveryEditAccountedFor(r)
  }, 120_000)
})
