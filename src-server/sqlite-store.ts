import { findKeyTwin } from '../src-shared/key-twins.js'
import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { entryChecksumOf, ifMatchFails, repoChecksum } from './store.js'
import type { AuthFailures, DeleteResult, RepoSnapshot, TeamStore, UpsertResult } from './store.js'
import { newTokenRow, sha256, tokenInfo, usableRepos, type TokenRow } from './tokens.js'

/** Schema migrations, applied in order; the version reached is SQLite's user_version. */
const MIGRATIONS: string[] = [
  `CREATE TABLE IF NOT EXISTS repos (repo TEXT PRIMARY KEY, version INTEGER NOT NULL, last_modified TEXT NOT NULL, checksum TEXT NOT NULL);
   CREATE TABLE IF NOT EXISTS entries (repo TEXT NOT NULL, key TEXT NOT NULL, content TEXT NOT NULL, checksum TEXT NOT NULL, PRIMARY KEY (repo, key));
   CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, repos TEXT NOT NULL, created_at TEXT NOT NULL);`,
  `ALTER TABLE tokens ADD COLUMN expires_at TEXT;
   ALTER TABLE tokens ADD COLUMN revoked_at TEXT;`,
  `CREATE TABLE IF NOT EXISTS auth_failures (ip TEXT PRIMARY KEY, n INTEGER NOT NULL, since INTEGER NOT NULL);`,
  // Every request finds its repo in any case (store.ts, storedRepoName): through this, not a scan.
  `CREATE INDEX IF NOT EXISTS repos_any_case ON repos (repo COLLATE NOCASE);`,
]

/** The name a repo is stored under, found in any case (storedRepoName). */
export const SQLITE_REPO_IN_ANY_CASE =
  'SELECT repo FROM repos WHERE repo = ? COLLATE NOCASE ORDER BY repo = ? DESC, version DESC LIMIT 1'

function migrate(db: Database.Database) {
  db.transaction(() => {
    const at = db.pragma('user_version', { simple: true }) as number
    for (let v = at + 1; v <= MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v - 1]!)
      db.pragma(`user_version = ${v}`)
    }
  }).immediate()
}

export function openSqliteStore(file: string): TeamStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  migrate(db)
  const getRepoRow = db.prepare<[string], { version: number; last_modified: string; checksum: string }>(
    'SELECT version, last_modified, checksum FROM repos WHERE repo = ?',
  )
  // Repo names are ASCII (the query schema's rule): NOCASE folds all of their case.
  const repoNamed = db.prepare<[string, string], { repo: string }>(SQLITE_REPO_IN_ANY_CASE)
  const getEntries = db.prepare<[string], { key: string; content: string; checksum: string }>(
    'SELECT key, content, checksum FROM entries WHERE repo = ?',
  )
  const keysOf = db.prepare<[string], { key: string }>('SELECT key FROM entries WHERE repo = ?')
  const putEntry = db.prepare(
    'INSERT INTO entries (repo, key, content, checksum) VALUES (?, ?, ?, ?) ON CONFLICT (repo, key) DO UPDATE SET content = excluded.content, checksum = excluded.checksum',
  )
  const putRepo = db.prepare(
    'INSERT INTO repos (repo, version, last_modified, checksum) VALUES (?, ?, ?, ?) ON CONFLICT (repo) DO UPDATE SET version = excluded.version, last_modified = excluded.last_modified, checksum = excluded.checksum',
  )
  const checksumsOf = db.prepare<[string], { key: string; checksum: string }>(
    'SELECT key, checksum FROM entries WHERE repo = ?',
  )

  const upsertTx = db.transaction(
    (
      repo: string,
      entries: Record<string, string>,
      ifMatch: string | undefined,
      maxEntries: number,
    ): UpsertResult => {
      const row = getRepoRow.get(repo)
      if (ifMatchFails(ifMatch, row?.checksum)) return { status: 'conflict' }
      const keys = Object.keys(entries)
      const existing = new Set(keysOf.all(repo).map((r) => r.key))
      const total = existing.size + keys.filter((k) => !existing.has(k)).length
      if (total > maxEntries)
        return { status: 'too_many', maxEntries, receivedEntries: total, heldEntries: existing.size }
      const twin = findKeyTwin(existing, keys)
      if (twin) return { status: 'twin', ...twin }
      for (const k of keys) putEntry.run(repo, k, entries[k], entryChecksumOf(entries[k] as string))
      return { status: 'ok', ...bumpRepo(repo, row?.version ?? 0) }
    },
  )

  /** A new version of the repo over the entries it holds now. */
  function bumpRepo(repo: string, version: number): { checksum: string; lastModified: string } {
    const lastModified = new Date().toISOString()
    const checksum = repoChecksum(
      version + 1,
      checksumsOf.all(repo).map((r) => [r.key, r.checksum] as [string, string]),
    )
    putRepo.run(repo, version + 1, lastModified, checksum)
    return { checksum, lastModified }
  }

  const deleteEntry = db.prepare('DELETE FROM entries WHERE repo = ? AND key = ?')
  const deleteTx = db.transaction(
    (repo: string, keys: string[], ifMatch: string | undefined): DeleteResult => {
      const row = getRepoRow.get(repo)
      if (ifMatchFails(ifMatch, row?.checksum)) return { status: 'conflict' }
      const existing = new Set(keysOf.all(repo).map((r) => r.key))
      const missing = keys.filter((k) => !existing.has(k))
      if (!row || missing.length) return { status: 'not_found', missing: row ? missing : keys }
      for (const k of keys) deleteEntry.run(repo, k)
      return { status: 'ok', deleted: keys, ...bumpRepo(repo, row.version) }
    },
  )

  const noteFailure = db.prepare<[{ ip: string; now: number; cutoff: number }], { n: number; since: number }>(
    `INSERT INTO auth_failures (ip, n, since) VALUES (@ip, 1, @now)
     ON CONFLICT (ip) DO UPDATE SET
       n = CASE WHEN since < @cutoff THEN 1 ELSE n + 1 END,
       since = CASE WHEN since < @cutoff THEN @now ELSE since END
     RETURNING n, since`,
  )
  const pruneFailures = db.prepare('DELETE FROM auth_failures WHERE since < ?')

  // One read transaction: the repo row and its entries come from the same snapshot.
  const readRepo = db.transaction((repo: string): RepoSnapshot | undefined => {
    const row = getRepoRow.get(repo)
    if (!row) return undefined
    const snap: RepoSnapshot = {
      version: row.version,
      lastModified: row.last_modified,
      checksum: row.checksum,
      entries: new Map(),
    }
    for (const e of getEntries.all(repo))
      snap.entries.set(e.key, { content: e.content, checksum: e.checksum })
    return snap
  })

  return {
    async repoSpelledAs(repo) {
      return repoNamed.get(repo, repo)?.repo
    },
    async getRepo(repo) {
      return readRepo(repo)
    },
    async upsert(repo, entries, ifMatch, maxEntries) {
      return upsertTx.immediate(repo, entries, ifMatch, maxEntries)
    },
    async deleteKeys(repo, keys, ifMatch) {
      return deleteTx.immediate(repo, keys, ifMatch)
    },
    async noteAuthFailure(ip, windowMs): Promise<AuthFailures> {
      const now = Date.now()
      pruneFailures.run(now - windowMs)
      const r = noteFailure.get({ ip, now, cutoff: now - windowMs })!
      return { count: r.n, since: r.since }
    },
    async addToken(repos, expiresAt) {
      const { token, row } = newTokenRow(repos, expiresAt)
      db.prepare(
        'INSERT INTO tokens (hash, repos, created_at, expires_at) VALUES (@hash, @repos, @created_at, @expires_at)',
      ).run(row)
      return token
    },
    async tokenRepos(token) {
      const row = db
        .prepare<[string], TokenRow>(
          'SELECT hash, repos, created_at, expires_at, revoked_at FROM tokens WHERE hash = ?',
        )
        .get(sha256(token))
      return usableRepos(row)
    },
    async listTokens() {
      return db
        .prepare<[], TokenRow>(
          'SELECT hash, repos, created_at, expires_at, revoked_at FROM tokens ORDER BY created_at',
        )
        .all()
        .map(tokenInfo)
    },
    async revokeToken(id) {
      if (id.length < 6) return false
      const r = db
        .prepare('UPDATE tokens SET revoked_at = ? WHERE hash LIKE ? AND revoked_at IS NULL')
        .run(new Date().toISOString(), id.toLowerCase().replace(/[^0-9a-f]/g, '') + '%')
      return r.changes > 0
    },
    async ping() {
      db.prepare('SELECT 1').get()
    },
    async schemaVersion() {
      return db.pragma('user_version', { simple: true }) as number
    },
    async close() {
      db.close()
    },
  }
}
