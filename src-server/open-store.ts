import { homedir } from 'node:os'
import { join } from 'node:path'
import type { TeamStore } from './store.js'

export function defaultDataFile(env: Record<string, string | undefined>): string {
  return env.MEMDIR_TEAM_DATA || join(env.HOME ?? homedir(), '.memdir', 'team-server.sqlite')
}

/** PostgreSQL when DATABASE_URL is set, else SQLite at `dataFile`. Loaded lazily: neither is needed by the app. */
export async function openTeamStore(opts: {
  databaseUrl?: string
  dataFile: string
}): Promise<{ store: TeamStore; kind: string }> {
  if (opts.databaseUrl) {
    const { openPostgresStore } = await import('./pg-store.js')
    return { store: await openPostgresStore(opts.databaseUrl), kind: 'postgres' }
  }
  const { openSqliteStore } = await import('./sqlite-store.js')
  return { store: openSqliteStore(opts.dataFile), kind: `sqlite ${opts.dataFile}` }
}
