import pg from 'pg'
import {
  entryChecksumOf,
  newToken,
  quoteEtag,
  repoChecksum,
  sha256,
  type RepoSnapshot,
  type TeamStore,
} from './store.js'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS team_repos (repo TEXT PRIMARY KEY, version INTEGER NOT NULL, last_modified TEXT NOT NULL, checksum TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS team_entries (repo TEXT NOT NULL, key TEXT NOT NULL, content TEXT NOT NULL, checksum TEXT NOT NULL, PRIMARY KEY (repo, key));
CREATE TABLE IF NOT EXISTS team_tokens (hash TEXT PRIMARY KEY, repos TEXT NOT NULL, created_at TEXT NOT NULL);
`

/** PostgreSQL storage for teams that outgrow one box (DATABASE_URL). Row lock per repo on write. */
export async function openPostgresStore(connectionString: string): Promise<TeamStore> {
  const pool = new pg.Pool({ connectionString, max: 5 })
  await pool.query(SCHEMA)
  return {
    async getRepo(repo) {
      const r = await pool.query('SELECT version, last_modified, checksum FROM team_repos WHERE repo = $1', [
        repo,
      ])
      if (!r.rowCount) return undefined
      const row = r.rows[0] as { version: number; last_modified: string; checksum: string }
      const e = await pool.query('SELECT key, content, checksum FROM team_entries WHERE repo = $1', [repo])
      const snap: RepoSnapshot = {
        version: row.version,
        lastModified: row.last_modified,
        checksum: row.checksum,
        entries: new Map(),
      }
      for (const x of e.rows as { key: string; content: string; checksum: string }[]) {
        snap.entries.set(x.key, { content: x.content, checksum: x.checksum })
      }
      return snap
    },
    async upsert(repo, entries, ifMatch, maxEntries) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        // Serialize writers of one repo, also for a repo's very first write.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [repo])
        const cur = await client.query('SELECT version, checksum FROM team_repos WHERE repo = $1', [repo])
        const row = cur.rows[0] as { version: number; checksum: string } | undefined
        if (ifMatch !== undefined && ifMatch !== '*' && (!row || quoteEtag(row.checksum) !== ifMatch)) {
          await client.query('ROLLBACK')
          return { status: 'conflict' }
        }
        const keys = Object.keys(entries)
        const existing = await client.query('SELECT key FROM team_entries WHERE repo = $1', [repo])
        const have = new Set((existing.rows as { key: string }[]).map((r) => r.key))
        const total = have.size + keys.filter((k) => !have.has(k)).length
        if (total > maxEntries) {
          await client.query('ROLLBACK')
          return { status: 'too_many', maxEntries, receivedEntries: total }
        }
        for (const k of keys) {
          await client.query(
            'INSERT INTO team_entries (repo, key, content, checksum) VALUES ($1, $2, $3, $4) ON CONFLICT (repo, key) DO UPDATE SET content = EXCLUDED.content, checksum = EXCLUDED.checksum',
            [repo, k, entries[k], entryChecksumOf(entries[k] as string)],
          )
        }
        const sums = await client.query('SELECT key, checksum FROM team_entries WHERE repo = $1', [repo])
        const version = (row?.version ?? 0) + 1
        const lastModified = new Date().toISOString()
        const checksum = repoChecksum(
          version,
          (sums.rows as { key: string; checksum: string }[]).map((r) => [r.key, r.checksum]),
        )
        await client.query(
          'INSERT INTO team_repos (repo, version, last_modified, checksum) VALUES ($1, $2, $3, $4) ON CONFLICT (repo) DO UPDATE SET version = EXCLUDED.version, last_modified = EXCLUDED.last_modified, checksum = EXCLUDED.checksum',
          [repo, version, lastModified, checksum],
        )
        await client.query('COMMIT')
        return { status: 'ok', checksum, lastModified }
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {})
        throw e
      } finally {
        client.release()
      }
    },
    async addToken(repos) {
      const { token, hash } = newToken()
      await pool.query('INSERT INTO team_tokens (hash, repos, created_at) VALUES ($1, $2, $3)', [
        hash,
        JSON.stringify(repos),
        new Date().toISOString(),
      ])
      return token
    },
    async tokenRepos(token) {
      const r = await pool.query('SELECT repos FROM team_tokens WHERE hash = $1', [sha256(token)])
      return r.rowCount ? (JSON.parse((r.rows[0] as { repos: string }).repos) as string[]) : undefined
    },
    async close() {
      await pool.end()
    },
  }
}
