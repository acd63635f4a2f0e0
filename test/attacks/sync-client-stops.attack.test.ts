import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TeamApiClient, TeamApiError } from '../../src-main/core/team/api-client.js'
import { TeamSyncScheduler, type TeamSyncEvent } from '../../src-main/core/team/scheduler.js'
import { createSyncState, syncTeamMemory, type SyncDeps } from '../../src-main/core/team/sync.js'
import { runBuilt } from '../helpers/built-cli.js'
import { startTeamServer } from '../helpers/team-server.js'
import { sandbox, tempDir, writeFile } from '../helpers/temp-env.js'

/**
 * A sync always ends: an answer retrying cannot fix (400, 401, 403, 413, 422) ends it at once
 * with a clear error; 5xx and network failures are retried within a per-sync budget; the
 * background scheduler waits longer after each failure.
 */

const servers: Server[] = []
afterEach(async () => {
  while (servers.length) await new Promise((r) => servers.pop()!.close(r))
})

/** A server that answers every request the same way and counts them. */
async function always(status: number, body: unknown = { error: { message: 'nope' } }) {
  const seen = { requests: 0 }
  const server = createServer((req, res) => {
    seen.requests++
    req.resume()
    // A full server also answers GETs: there is just no data for the repo.
    if (req.method === 'GET' && status === 413) {
      res.writeHead(404).end()
      return
    }
    const text = JSON.stringify(body)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const fullServer = {
  error: {
    message: 'too many entries',
    details: {
      error_code: 'team_memory_too_many_entries',
      max_entries: 5,
      received_entries: 7,
      held_entries: 4,
    },
  },
}

function deps(url: string): SyncDeps {
  const teamDir = join(tempDir(), 'team')
  for (const k of ['a', 'b', 'c']) writeFile(join(teamDir, `${k}.md`), `${k}\n`)
  return {
    api: new TeamApiClient({ baseUrl: url, token: 'tmt_x' }),
    repo: 'acme/shop',
    teamDir,
    state: createSyncState(),
    sleep: async () => {},
  }
}

describe('a sync ends within a bounded number of requests', () => {
  it.each([400, 401, 403, 413, 422])(
    'against a server that always answers %i: at once, permanent',
    async (status) => {
      const s = await always(status, status === 413 ? fullServer : undefined)
      const err = await syncTeamMemory(deps(s.url)).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(TeamApiError)
      expect(err).toMatchObject({ permanent: true })
      expect(s.seen.requests).toBeLessThanOrEqual(2) // a GET, and for 413 the PUT it refused
    },
  )

  it.each([
    [
      'a proxy’s sign-in page',
      200,
      'text/html',
      '<html><head><style>p{}</style></head><body><p>Sign in to Corp Proxy</p></body></html>',
      /answered 200 with text\/html that is not JSON \("Sign in to Corp Proxy"\).*check the server URL/,
    ],
    ['an empty 200', 200, 'application/json', '', /answered 200 with an empty answer/],
    [
      'a 204',
      204,
      undefined,
      '',
      /answered 204, where the team memory API answers 200 with JSON: check the server URL$/,
    ],
    ['a 201 with a page', 201, 'text/plain', 'created', /answered 201, .*\(it said "created"\)/],
  ])(
    'against a server that answers what is not its API (%s): at once, permanent, saying what came',
    async (_, status, type, body, said) => {
      const seen = { requests: 0 }
      const server = createServer((req, res) => {
        seen.requests++
        req.resume()
        res.writeHead(status, type ? { 'content-type': type } : {}).end(body)
      })
      servers.push(server)
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      const d = deps(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      const err = await syncTeamMemory(d).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(TeamApiError)
      expect(err).toMatchObject({ permanent: true })
      expect((err as Error).message).toMatch(said)
      expect(seen.requests).toBe(1)
    },
  )

  it('against a server that always answers 500: retried with backoff, then given up', async () => {
    const s = await always(500)
    const waits: number[] = []
    const d = { ...deps(s.url), sleep: async (ms: number) => void waits.push(ms) }
    const err = await syncTeamMemory(d).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TeamApiError)
    expect(err).toMatchObject({ permanent: false })
    expect(s.seen.requests).toBe(4) // one GET and its three retries
    expect(waits).toHaveLength(3)
    expect(waits[1]!).toBeGreaterThan(waits[0]!) // exponential
  })

  it('a full server ends `memdir sync --push` at once, naming the limit, the count and what to remove', async () => {
    const server = await startTeamServer({ maxEntries: 5 })
    const token = await server.token('acme/shop')
    await server.store.upsert(
      'acme/shop',
      { 'w.md': 'w', 'x.md': 'x', 'y.md': 'y', 'z.md': 'z' },
      undefined,
      5,
    )
    let puts = 0
    const counted = await startTeamServer({
      maxEntries: 5,
      wrap: (store) => ({
        ...store,
        upsert: (...a) => {
          puts++
          return server.store.upsert(...a)
        },
        getRepo: (r) => server.store.getRepo(r),
        tokenRepos: (t) => server.store.tokenRepos(t),
      }),
    })
    const sb = sandbox({
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: counted.url,
      MEMDIR_TEAM_TOKEN: token,
      MEMDIR_TEAM_REPO: 'acme/shop',
    })
    const { getTeamMemPath } = await import('../../src-main/core/paths/team-agent-paths.js')
    for (const k of ['new1', 'new2', 'new3']) writeFile(join(getTeamMemPath(sb.ctx()), `${k}.md`), `${k}\n`)
    const r = await runBuilt(['sync', '--push'], { env: sb.env, cwd: sb.project, timeoutMs: 20_000 })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/at most 5 keys/)
    expect(r.stderr).toMatch(/holds 4/)
    expect(r.stderr).toMatch(/3 new keys/)
    expect(r.stderr).toMatch(/team-server key delete/)
    expect(puts).toBe(1)
  })

  it('`memdir sync` against a server that always answers 500 exits 1 within its retry budget', async () => {
    const s = await always(500)
    const sb = sandbox({
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: s.url,
      MEMDIR_TEAM_TOKEN: 'tmt_x',
      MEMDIR_TEAM_REPO: 'acme/shop',
    })
    const r = await runBuilt(['sync'], { env: sb.env, cwd: sb.project, timeoutMs: 30_000 })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('500')
    expect(s.seen.requests).toBe(4)
  }, 40_000)
})

describe('the background scheduler backs off after failures', () => {
  it('skips timed syncs while it waits, and waits longer after each failure', async () => {
    const s = await always(500)
    const events: TeamSyncEvent[] = []
    const scheduler = new TeamSyncScheduler({
      deps: deps(s.url),
      pullIntervalMs: 30, // a pull every 30 ms would hammer the server without the backoff
      retryBaseMs: 400,
      random: () => 0,
      onEvent: (e) => events.push(e),
    })
    await scheduler.start()
    const afterStart = s.seen.requests
    await new Promise((r) => setTimeout(r, 300))
    expect(s.seen.requests).toBe(afterStart) // no timed pull during the wait
    await new Promise((r) => setTimeout(r, 1000)) // the 400 ms retry fails, then it waits 800 ms
    await scheduler.stop()
    const waits = events.flatMap((e) => (e.type === 'error' ? [e.retryInMs] : []))
    expect(waits.slice(0, 2)).toEqual([400, 800])
    expect(waits.every((w, i) => i === 0 || w === 2 * waits[i - 1]!)).toBe(true)
    // Only the failed syncs and their retries reached the server: none of the ~40 timed pulls.
    expect(s.seen.requests).toBe(afterStart * waits.length)
  })
})
