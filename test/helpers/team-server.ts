import type { Server } from 'node:http'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { createTeamServer, listen, type TeamServerOptions } from '../../src-server/http-server.js'
import { openTeamStore } from '../../src-server/open-store.js'
import type { TeamStore } from '../../src-server/store.js'
import { tempDir } from './temp-env.js'

export interface RunningTeamServer {
  url: string
  server: Server
  store: TeamStore
  token: (...repos: string[]) => Promise<string>
  close: () => Promise<void>
}

const running: RunningTeamServer[] = []
afterEach(async () => {
  while (running.length) await running.pop()!.close()
})

const TEAM_PATH = '/api/claude_code/team_memory'

/** One raw request to the team memory API (a string body is sent as is: malformed JSON tests). */
export async function teamCall(
  url: string,
  token: string | undefined,
  method: string,
  repo: string,
  opts: { body?: unknown; headers?: Record<string, string>; view?: string } = {},
) {
  const u = `${url}${TEAM_PATH}?repo=${encodeURIComponent(repo)}${opts.view ? `&view=${opts.view}` : ''}`
  const res = await fetch(u, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      ...opts.headers,
    },
    body:
      opts.body === undefined
        ? undefined
        : typeof opts.body === 'string'
          ? opts.body
          : JSON.stringify(opts.body),
  })
  const text = await res.text()
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
  }
}

/** The real team server on loopback, SQLite in a temp dir (or PostgreSQL when a URL is given). */
export async function startTeamServer(
  opts: Omit<Partial<TeamServerOptions>, 'store'> & {
    databaseUrl?: string
    /** SQLite file (default: a new one); two servers given one file share it. */
    dataFile?: string
    port?: number
    /** Wraps the store (to slow it down or make it fail in a test). */
    wrap?: (s: TeamStore) => TeamStore
  } = {},
): Promise<RunningTeamServer> {
  const opened = await openTeamStore({
    databaseUrl: opts.databaseUrl,
    dataFile: opts.dataFile ?? join(tempDir(), 'team.sqlite'),
  })
  const store = opts.wrap ? opts.wrap(opened.store) : opened.store
  const server: Server = createTeamServer({ ...opts, store })
  const url = await listen(server, opts.port ?? 0)
  const handle: RunningTeamServer = {
    url,
    server,
    store,
    token: (...repos) => store.addToken(repos),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      await store.close().catch(() => {}) // a test may have closed it already
    },
  }
  running.push(handle)
  return handle
}
