import { findKeyTwin } from '../src-shared/key-twins.js'
import pg from 'pg'
import { entryChecksumOf, ifMatchFails, repoChecksum } from './store.js'
import type { DeleteResult, RepoSnapshot, TeamStore, UpsertResult } from './store.js'
import { newTokenRow, sha256, tokenInfo, usableRepos, type TokenRow } from './tokens.js'

/** Schema migrations, applied in order; the version reached is recorded in the database. */
const MIGRATIONS: string[] = [
  `CREATE TABLE IF NOT EXISTS team_repos (repo TEXT PRIMARY KEY, version INTEGER NOT NULL, last_modified TEXT NOT NULL, checksum TEXT NOT NULL);
   CREATE TABLE IF NOT EXISTS team_entries (repo TEXT NOT NULL, key TEXT NOT NULL, content TEXT NOT NULL, checksum TEXT NOT NULL, PRIMARY KEY (repo, key));
   CREATE TABLE IF NOT EXISTS team_tokens (hash TEXT PRIMARY KEY, repos TEXT NOT NULL, created_at TEXT NOT NULL);`,
  `ALTER TABLE team_tokens ADD COLUMN IF NOT EXISTS expires_at TEXT;
   ALTER TABLE team_tokens ADD COLUMN IF NOT EXISTS revoked_at TEXT;`,
  `CREATE TABLE IF NOT EXISTS team_auth_failures (ip TEXT PRIMARY KEY, n INTEGER NOT NULL, since BIGINT NOT NULL);`,
  // Every request finds its repo in any case (store.ts, storedRepoName): through this, not a scan.
  `CREATE INDEX IF NOT EXISTS team_repos_any_case ON team_repos (lower(repo));`,
]

/** The name a repo is stored under, found in any case (storedRepoName). */
export const PG_REPO_IN_ANY_CASE =
  'SELECT repo FROM team_repos WHERE lower(repo) = lower($1) ORDER BY repo = $1 DESC, version DESC LIMIT 1'

/** Several server instances may start at once: one applies the migrations, under an advisory lock. */
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('memdir-team-migrations'))`)
    await client.query(
      'CREATE TABLE IF NOT EXISTS team_schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    )
    const r = await client.query('SELECT COALESCE(MAX(version), 0) AS v FROM team_schema_migrations')
    const at = Number((r.rows[0] as { v: number }).v)
    for (let v = at + 1; v <= MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v - 1]!)
      await client.query('INSERT INTO team_schema_migrations (version, applied_at) VALUES ($1, $2)', [
        v,
        new Date().toISOString(),
      ])
    }
    await client.query('COMMIT')
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {})
    throw e
  } finally {
    client.release()
  }
}

/**
 * PostgreSQL storage for teams that outgrow one box (DATABASE_URL); any number of server instances
 * may share the database — no per-repo state lives in a process. Reads see one snapshot
 * (REPEATABLE READ, read only), writers of a repo are serialized by an advisory lock, and a push
 * is one batched upsert.
 */
export async function openPostgresStore(
  connectionString: string,
  opts: { poolSize?: number } = {},
): Promise<TeamStore> {
  const pool = new pg.Pool({ connectionString, max: opts.poolSize ?? 10 })
  await migrate(pool)

  async function tx<T>(mode: string, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect()
    try {
      await client.query(`BEGIN ${mode}`)
      const out = await fn(client)
      await client.query('COMMIT')
      return out
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {})
      throw e
    } finally {
      client.release()
    }
  }

  /** Serializes writers of one repo (across instances, also for its very first write); its row. */
  async function lockRepo(c: pg.PoolClient, repo: string) {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [repo])
    const cur = await c.query('SELECT version, checksum FROM team_repos WHERE repo = $1', [repo])
    return cur.rows[0] as { version: number; checksum: string } | undefined
  }

  async function checksumsOf(c: pg.PoolClient, repo: string): Promise<Map<string, string>> {
    const sums = await c.query('SELECT key, checksum FROM team_entries WHERE repo = $1', [repo])
    return new Map((sums.rows as { key: string; checksum: string }[]).map((r) => [r.key, r.checksum]))
  }

  /** A new version of the repo over `all`, the entry checksums it holds now. */
  async function bumpRepo(c: pg.PoolClient, repo: string, version: number, all: Map<string, string>) {
    const lastModified = new Date().toISOString()
    const checksum = repoChecksum(version + 1, all)
    await c.query(
      'INSERT INTO team_repos (repo, version, last_modified, checksum) VALUES ($1, $2, $3, $4) ON CONFLICT (repo) DO UPDATE SET version = EXCLUDED.version, last_modified = EXCLUDED.last_modified, checksum = EXCLUDED.checksum',
      [repo, version + 1, lastModified, checksum],
    )
    return { checksum, lastModified }
  }

  return {
    async repoSpelledAs(repo) {
      const r = await pool.query(PG_REPO_IN_ANY_CASE, [repo])
      return (r.rows[0] as { repo: string } | undefined)?.repo
    },
    getRepo(repo) {
      return tx('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (c) => {
        const r = await c.query('SELECT version, last_modified, checksum FROM team_repos WHERE repo = $1', [
          repo,
        ])
        if (!r.rowCount) return undefined
        const row = r.rows[0] as { version: number; last_modified: string; checksum: string }
        const e = await c.query('SELECT key, content, checksum FROM team_entries WHERE repo = $1', [repo])
        const snap: RepoSnapshot = {
          version: row.version,
          lastModified: row.last_modified,
          checksum: row.checksum,
          entries: new Map(),
        }
        for (const x of e.rows as { key: string; content: string; checksum: string }[])
          snap.entries.set(x.key, { content: x.content, checksum: x.checksum })
        return snap
      })
    },
    upsert(repo, entries, ifMatch, maxEntries) {
      return tx('', async (c): Promise<UpsertResult> => {
        const row = await lockRepo(c, repo)
        if (ifMatchFails(ifMatch, row?.checksum)) return { status: 'conflict' }
        const keys = Object.keys(entries)
        const all = await checksumsOf(c, repo)
        const held = all.size
        const total = held + keys.filter((k) => !all.has(k)).length
        if (total > maxEntries)
          return { status: 'too_many', maxEntries, receivedEntries: total, heldEntries: held }
        const twin = findKeyTwin(all.keys(), keys)
        if (twin) return { status: 'twin', ...twin }
        const checksums = keys.map((k) => entryChecksumOf(entries[k] as string))
        if (keys.length)
          await c.query(
            `INSERT INTO team_entries (repo, key, content, checksum)
             SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])
             ON CONFLICT (repo, key) DO UPDATE SET content = EXCLUDED.content, checksum = EXCLUDED.checksum`,
            [repo, keys, keys.map((k) => entries[k]), checksums],
          )
        keys.forEach((k, i) => all.set(k, checksums[i]!))
        return { status: 'ok', ...(await bumpRepo(c, repo, row?.version ?? 0, all)) }
      })
    },
    deleteKeys(repo, keys, ifMatch) {
      return tx('', async (c): Promise<DeleteResult> => {
        const row = await lockRepo(c, repo)
        if (ifMatchFails(ifMatch, row?.checksum)) return { status: 'conflict' }
        const all = await checksumsOf(c, repo)
        const missing = keys.filter((k) => !all.has(k))
        if (!row || missing.length) return { status: 'not_found', missing: row ? missing : keys }
        await c.query('DELETE FROM team_entries WHERE repo = $1 AND key = ANY($2::text[])', [repo, keys])
        for (const k of keys) all.delete(k)
        return { status: 'ok', deleted: keys, ...(await bumpRepo(c, repo, row.version, all)) }
      })
    },
    async noteAuthFailure(ip, windowMs) {
      const now = Date.now()
      await pool.query('DELETE FROM team_auth_failures WHERE since < $1', [now - windowMs])
      const r = await pool.query(
        `INSERT INTO team_auth_failures (ip, n, since) VALUES ($1, 1, $2)
         ON CONFLICT (ip) DO UPDATE SET
           n = CASE WHEN team_auth_failures.since < $3 THEN 1 ELSE team_auth_failures.n + 1 END,
           since = CASE WHEN team_auth_failures.since < $3 THEN $2 ELSE team_auth_failures.since END
         RETURNING n, since`,
        [ip, now, now - windowMs],
      )
      const row = r.rows[0] as { n: number; since: string }
      return { count: Number(row.n), since: Number(row.since) }
    },
    async addToken(repos, expiresAt) {
      const { token, row } = newTokenRow(repos, expiresAt)
      await pool.query(
        'INSERT INTO team_tokens (hash, repos, created_at, expires_at) VALUES ($1, $2, $3, $4)',
        [row.hash, row.repos, row.created_at, row.expires_at],
      )
      return token
    },
    async tokenRepos(token) {
      const r = await pool.query('SELECT repos, expires_at, revoked_at FROM team_tokens WHERE hash = $1', [
        sha256(token),
      ])
      const row = r.rows[0] as
        { repos: string; expires_at: string | null; revoked_at: string | null } | undefined
      return usableRepos(row)
    },
    async listTokens() {
      const r = await pool.query(
        'SELECT hash, repos, created_at, expires_at, revoked_at FROM team_tokens ORDER BY created_at',
      )
      return (r.rows as TokenRow[]).map(tokenInfo)
    },
    async revokeToken(id) {
      if (id.length < 6) return false
      const r = await pool.query(
        'UPDATE team_tokens SET revoked_at = $1 WHERE hash LIKE $2 AND revoked_at IS NULL',
        [new Date().toISOString(), id.toLowerCase().replace(/[^0-9a-f]/g, '') + '%'],
      )
      return (r.rowCount ?? 0) > 0
    },
    async ping() {
      await pool.query('SELECT 1')
    },
    async schemaVersion() {
      const r = await pool.query('SELECT COALESCE(MAX(version), 0) AS v FROM team_schema_migrations')
      return Number((r.rows[0] as { v: number }).v)
    },
    async close() {
      await pool.end()
    },
  }
}
