import type { Server } from 'node:http'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { createTeamServer, listen } from '../../src-server/http-server.js'
import { openTeamStore } from '../../src-server/open-store.js'
import type { TeamStore } from '../../src-server/store.js'
import { tempDir } from './temp-env.js'

export interface RunningTeamServer {
  url: string
  store: TeamStore
  token: (...repos: string[]) => Promise<string>
  close: () => Promise<void>
}

const running: RunningTeamServer[] = []
afterEach(async () => {
  while (running.length) await running.pop()!.close()
})

/** The real team server on loopback, SQLite in a temp dir (or PostgreSQL when a URL is given). */
export async function startTeamServer(
  opts: { databaseUrl?: string; maxEntries?: number; maxBodyBytes?: number; port?: number } = {},
): Promise<RunningTeamServer> {
  const { store } = await openTeamStore({
    databaseUrl: opts.databaseUrl,
    dataFile: join(tempDir(), 'team.sqlite'),
  })
  const server: Server = createTeamServer({
    store,
    maxEntries: opts.maxEntries,
    maxBodyBytes: opts.maxBodyBytes,
  })
  const url = await listen(server, opts.port ?? 0)
  const handle: RunningTeamServer = {
    url,
    store,
    token: (...repos) => store.addToken(repos),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      await store.close()
    },
  }
  running.push(handle)
  return handle
}
