import Database from 'better-sqlite3'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { startTeamServer, teamCall } from '../test/helpers/team-server.js'
import { tempDir } from '../test/helpers/temp-env.js'
import { closeGracefully } from './http-server.js'
import { PG_REPO_IN_ANY_CASE } from './pg-store.js'
import { SQLITE_REPO_IN_ANY_CASE } from './sqlite-store.js'
import { repoChecksum, type TeamStore } from './store.js'

const PATH = '/api/claude_code/team_memory'

/** A request with a JSON body and extra headers (most of these tests send both or neither). */
const call = (
  url: string,
  token: string | undefined,
  method: string,
  repo: string,
  body?: unknown,
  headers?: Record<string, string>,
) => teamCall(url, token, method, repo, { body, headers })

const backends = [{ name: 'sqlite', databaseUrl: undefined as string | undefined }]
if (process.env.TEST_DATABASE_URL)
  backends.push({ name: 'postgres', databaseUrl: process.env.TEST_DATABASE_URL })
const repo = () => `ops/r-${Math.random().toString(36).slice(2, 8)}`

describe.each(backends)('team server operations ($name)', ({ databaseUrl }) => {
  it('answers /healthz always and /readyz only while the database does; migrations are versioned', async () => {
    const s = await startTeamServer({ databaseUrl })
    expect(await s.store.schemaVersion()).toBe(4)
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200)
    const ready = await fetch(`${s.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', schemaVersion: 4 })
    await s.store.close()
    expect((await fetch(`${s.url}/readyz`)).status).toBe(503)
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200)
  })

  it('finds a repo in any case through an index, not by reading every repo', async () => {
    const dataFile = join(tempDir(), 'team.sqlite')
    const s = await startTeamServer({ databaseUrl, dataFile })
    try {
      const token = await s.token('*')
      for (let i = 0; i < 20; i++)
        await call(s.url, token, 'PUT', `Org/Repo-${i}`, { entries: { 'a.md': 'a' } })
      // Another teammate's origin spells it in other case: the same repo.
      const got = await call(s.url, token, 'GET', 'org/REPO-7')
      expect(got.status).toBe(200)
      expect((got.body as { content: { entries: object } }).content.entries).toEqual({ 'a.md': 'a' })
      expect(await planOfRepoLookup(databaseUrl, dataFile)).toMatch(/any_case/)
    } finally {
      await s.store.close()
    }
  })

  it('writes one JSON access-log line per request, without tokens or contents', async () => {
    const lines: string[] = []
    const s = await startTeamServer({ databaseUrl, accessLog: (l) => lines.push(l) })
    const r = repo()
    const t = await s.token(r)
    await call(s.url, t, 'PUT', r, { entries: { 'a.md': 'SECRET-CONTENT' } })
    await call(s.url, t, 'GET', r)
    await call(s.url, 'tmt_nope', 'GET', r)
    await new Promise((res) => setTimeout(res, 20))
    expect(lines).toHaveLength(3)
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(parsed.map((p) => [p.method, p.path, p.repo, p.status])).toEqual([
      ['PUT', PATH, r, 200],
      ['GET', PATH, r, 200],
      ['GET', PATH, r, 401],
    ])
    for (const p of parsed) {
      expect(typeof p.ms).toBe('number')
      expect(typeof p.bytes).toBe('number')
    }
    expect(lines.join('\n')).not.toMatch(/SECRET-CONTENT|tmt_/)
  })

  it('lists, revokes and expires tokens', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const keep = await s.store.addToken([r])
    const gone = await s.store.addToken([r])
    const brief = await s.store.addToken([r], Date.now() + 150)
    expect((await call(s.url, brief, 'GET', r)).status).toBe(404) // authorized: no data yet
    const listed = (await s.store.listTokens()).filter((t) => t.repos.includes(r))
    expect(listed).toHaveLength(3)
    expect(listed.every((t) => /^[0-9a-f]{12}$/.test(t.id))).toBe(true)
    expect(JSON.stringify(listed)).not.toContain('tmt_')
    const { sha256 } = await import('./tokens.js')
    const goneId = sha256(gone).slice(0, 12)
    expect(await s.store.revokeToken(goneId)).toBe(true)
    expect(await s.store.revokeToken(goneId)).toBe(false)
    expect(await s.store.revokeToken('abc')).toBe(false) // too short to name one token
    await new Promise((res) => setTimeout(res, 200))
    expect((await call(s.url, gone, 'GET', r)).status).toBe(401)
    expect((await call(s.url, brief, 'GET', r)).status).toBe(401)
    expect((await call(s.url, keep, 'GET', r)).status).toBe(404)
    expect((await s.store.listTokens()).find((t) => t.id === goneId)?.revokedAt).toBeDefined()
  })

  // Each test's client claims its own address through a trusted proxy: the count lives in the
  // database, which every test on one PostgreSQL shares.
  const clientIp = () => `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`

  it('limits failed authentications per IP, and never refuses a valid token from that IP', async () => {
    const s = await startTeamServer({
      databaseUrl,
      trustProxy: true,
      authFailures: { max: 3, windowMs: 60_000 },
    })
    const r = repo()
    const t = await s.token(r)
    const ip = { 'x-forwarded-for': clientIp() }
    for (let i = 0; i < 3; i++)
      expect((await call(s.url, `tmt_guess${i}`, 'GET', r, undefined, ip)).status).toBe(401)
    const limited = await call(s.url, 'tmt_guess4', 'GET', r, undefined, ip)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await call(s.url, t, 'GET', r, undefined, ip)).status).toBe(404) // authorized: no data yet
    expect((await call(s.url, 'tmt_guess5', 'GET', r, undefined, ip)).status).toBe(429)
  })

  it('behind a trusted proxy the limit is per client address from X-Forwarded-For', async () => {
    const s = await startTeamServer({
      databaseUrl,
      trustProxy: true,
      authFailures: { max: 2, windowMs: 60_000 },
    })
    const r = repo()
    const t = await s.token(r)
    const [a, b] = [clientIp(), clientIp()]
    const from = (ip: string, token: string) =>
      call(s.url, token, 'GET', r, undefined, { 'x-forwarded-for': `10.9.9.9, ${ip}` })
    expect((await from(a, 'tmt_x')).status).toBe(401)
    expect((await from(a, 'tmt_y')).status).toBe(401)
    expect((await from(a, 'tmt_z')).status).toBe(429)
    expect((await from(a, t)).status).toBe(404) // the valid token still works
    expect((await from(b, 'tmt_w')).status).toBe(401) // another client is not counted with it
  })

  it('counts failures in the database: instances sharing it limit together', async () => {
    const dataFile = databaseUrl ? undefined : join(tempDir(), 'team.sqlite')
    const opts = { databaseUrl, dataFile, trustProxy: true, authFailures: { max: 2, windowMs: 60_000 } }
    const [one, two] = [await startTeamServer(opts), await startTeamServer(opts)]
    const r = repo()
    const ip = { 'x-forwarded-for': clientIp() }
    expect((await call(one.url, 'tmt_a', 'GET', r, undefined, ip)).status).toBe(401)
    expect((await call(two.url, 'tmt_b', 'GET', r, undefined, ip)).status).toBe(401)
    expect((await call(one.url, 'tmt_c', 'GET', r, undefined, ip)).status).toBe(429)
    expect((await call(two.url, 'tmt_d', 'GET', r, undefined, ip)).status).toBe(429)
  })

  it('a read racing writes gets one consistent snapshot: its ETag describes exactly its entries', async () => {
    // Every write sets all keys to one value and every read must see a single value and a checksum
    // that matches its own entries; a read of the repo row and the entries from two moments fails this.
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}.md`)
    const all = (v: number) => Object.fromEntries(keys.map((k) => [k, `v${v}`]))
    await call(s.url, t, 'PUT', r, { entries: all(0) })
    let writing = true
    const writer = (async () => {
      for (let v = 1; v <= 25; v++) await call(s.url, t, 'PUT', r, { entries: all(v) })
      writing = false
    })()
    const reads: {
      version: number
      checksum: string
      entries: Record<string, string>
      sums: Record<string, string>
    }[] = []
    const reader = async () => {
      while (writing) {
        const g = await call(s.url, t, 'GET', r)
        reads.push({
          version: g.body.version,
          checksum: g.body.checksum,
          entries: g.body.content.entries,
          sums: g.body.content.entryChecksums,
        })
      }
    }
    await Promise.all([writer, reader(), reader(), reader()])
    expect(reads.length).toBeGreaterThan(10)
    for (const g of reads) {
      expect(new Set(Object.values(g.entries)).size).toBe(1)
      expect(repoChecksum(g.version, Object.entries(g.sums))).toBe(g.checksum)
    }
  })

  it('SIGTERM-style shutdown finishes the request in flight, then refuses new ones', async () => {
    let release!: () => void
    const gate = new Promise<void>((res) => (release = res))
    const s = await startTeamServer({
      databaseUrl,
      wrap: (store): TeamStore => ({
        ...store,
        getRepo: async (repo) => {
          await gate
          return store.getRepo(repo)
        },
      }),
    })
    const r = repo()
    const t = await s.token(r)
    await call(s.url, t, 'PUT', r, { entries: { 'a.md': 'A' } })
    const inFlight = call(s.url, t, 'GET', r)
    await new Promise((res) => setTimeout(res, 50))
    const closing = closeGracefully(s.server, 5_000)
    await new Promise((res) => setTimeout(res, 50))
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow()
    release()
    expect((await inFlight).status).toBe(200)
    await closing
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('several instances on one PostgreSQL', () => {
  it('serve the same repos: writes through one are read through the other, and conditional writes race correctly', async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL!
    const a = await startTeamServer({ databaseUrl })
    const b = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await a.token(r)
    const first = await call(a.url, t, 'PUT', r, { entries: { 'x.md': 'from a' } })
    const seen = await call(b.url, t, 'GET', r)
    expect(seen.body.content.entries).toEqual({ 'x.md': 'from a' })
    expect(seen.headers.get('etag')).toBe(`"${first.body.checksum}"`)
    // Six writers on both instances, all with the same If-Match: exactly one wins.
    const etag = seen.headers.get('etag')!
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call([a, b][i % 2]!.url, t, 'PUT', r, { entries: { [`w${i}.md`]: `w${i}` } }, { 'if-match': etag }),
      ),
    )
    expect(results.map((x) => x.status).sort()).toEqual([200, 412, 412, 412, 412, 412])
    const after = await call(a.url, t, 'GET', r)
    expect(Object.keys(after.body.content.entries)).toHaveLength(2)
    expect(after.body.version).toBe(2)
  })
})

/** How the database plans the store's repo lookup (the planner told to avoid scans where it can). */
async function planOfRepoLookup(databaseUrl: string | undefined, dataFile: string): Promise<string> {
  if (!databaseUrl) {
    const db = new Database(dataFile, { readonly: true })
    try {
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${SQLITE_REPO_IN_ANY_CASE}`).all('x/y', 'x/y') as {
        detail: string
      }[]
      return rows.map((r) => r.detail).join('\n')
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('SET enable_seqscan = off')
    const r = await client.query(`EXPLAIN ${PG_REPO_IN_ANY_CASE.replace(/\$1/g, "'x/y'")}`)
    return (r.rows as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n')
  } finally {
    await client.end()
  }
}
