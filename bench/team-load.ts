import { runTeamLoad, type TeamLoadOptions, type TeamLoadReport } from '../test/load/team-load.js'
import { table } from './lib.js'

/** The load and fault run of bench/README.md: 8 clients × 50 rounds through a faulty proxy. */
export const FULL_LOAD: Omit<TeamLoadOptions, 'databaseUrl' | 'instances'> = {
  clients: 8,
  rounds: 50,
  sharedKeys: 4,
  ownKeys: 2,
  faults: { error500: 0.04, dropBefore: 0.03, dropAfter: 0.03, maxDelayMs: 20 },
  killAt: 0.4,
  downMs: 1500,
  seed: 17,
}

function row(r: TeamLoadReport): Record<string, string | number> {
  return {
    backend: `${r.backend} × ${r.instances}`,
    edits: r.edits,
    requests: r.requests,
    'req/s': r.requestsPerSecond.toFixed(1),
    'server p50 ms': r.serverP50Ms.toFixed(1),
    'server p95 ms': r.serverP95Ms.toFixed(1),
    'sync p50 ms': r.syncP50Ms.toFixed(0),
    'sync p95 ms': r.syncP95Ms.toFixed(0),
    'faults (500/drop/lost reply/502)': `${r.injected.error500}/${r.injected.dropBefore}/${r.injected.dropAfter}/${r.injected.badGateway}`,
    conflicts: r.conflicts,
    'lost races kept': r.lostRaces,
    unaccounted: r.unaccounted.length,
    diverged: r.diverged.length,
  }
}

export async function benchTeamLoad(): Promise<void> {
  console.log(
    `\n## bench/team-load — ${FULL_LOAD.clients} clients × ${FULL_LOAD.rounds} rounds, faults injected, one instance killed mid-run`,
  )
  const databaseUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL
  const rows: TeamLoadReport[] = []
  if (databaseUrl) rows.push(await runTeamLoad({ ...FULL_LOAD, databaseUrl, instances: 2 }))
  else console.log('PostgreSQL skipped: set DATABASE_URL (or TEST_DATABASE_URL) to run two instances on it')
  rows.push(await runTeamLoad({ ...FULL_LOAD, instances: 1 }))
  table(rows.map(row))
  for (const r of rows)
    if (r.unaccounted.length || r.diverged.length || r.ownKeysWrong.length)
      console.log(
        `FAILED on ${r.backend}: ${JSON.stringify({ unaccounted: r.unaccounted, diverged: r.diverged, ownKeysWrong: r.ownKeysWrong })}`,
      )
}
