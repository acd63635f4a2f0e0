import type { KeyTwin } from '../src-shared/key-twins.js'
import { etagHeaderNames } from '../src-shared/etag.js'
import { sha256, type TokenInfo } from './tokens.js'

export interface RepoSnapshot {
  version: number
  lastModified: string
  /** "sha256:<hex>" over the version and every entry checksum: changes on every write. */
  checksum: string
  entries: Map<string, { content: string; checksum: string }>
}

export type UpsertResult =
  | { status: 'ok'; checksum: string; lastModified: string }
  | { status: 'conflict' }
  | { status: 'too_many'; maxEntries: number; receivedEntries: number; heldEntries: number }
  /** A new key that cannot live beside an existing one on every file system (src-shared/key-twins.ts). */
  | ({ status: 'twin' } & KeyTwin)

export type DeleteResult =
  | { status: 'ok'; checksum: string; lastModified: string; deleted: string[] }
  | { status: 'conflict' }
  | { status: 'not_found'; missing: string[] }

/** Failed authentications of one client address in the current window. */
export interface AuthFailures {
  count: number
  /** When the window started (ms). */
  since: number
}

/** Storage behind the team server; SQLite and PostgreSQL implement it. */
export interface TeamStore {
  /** The spelling of the repo the store holds under `repo` in any case (the exact one first), if any. */
  repoSpelledAs(repo: string): Promise<string | undefined>
  getRepo(repo: string): Promise<RepoSnapshot | undefined>
  /** Upserts `entries` (absent keys kept). `ifMatch` is the quoted ETag the client saw. */
  upsert(
    repo: string,
    entries: Record<string, string>,
    ifMatch: string | undefined,
    maxEntries: number,
  ): Promise<UpsertResult>
  /** Removes keys of a repo (every one must exist; nothing changes otherwise). */
  deleteKeys(repo: string, keys: string[], ifMatch: string | undefined): Promise<DeleteResult>
  /**
   * Counts one failed authentication from `ip` (a new window once `windowMs` passed) and returns
   * the count: kept in the database, so instances sharing one count together.
   */
  noteAuthFailure(ip: string, windowMs: number): Promise<AuthFailures>
  /** A new bearer token for these repos; `expiresAt` (ms) makes it stop working then. */
  addToken(repos: string[], expiresAt?: number): Promise<string>
  /** The repos a token may use, or undefined for an unknown, revoked or expired token. */
  tokenRepos(token: string): Promise<string[] | undefined>
  /** Every token (never the token itself: its id is the start of its hash). */
  listTokens(): Promise<TokenInfo[]>
  /** Revokes the token with this id (or id prefix of at least 6 characters); false when none matches. */
  revokeToken(id: string): Promise<boolean>
  /** The database answers (for /readyz). */
  ping(): Promise<void>
  /** The schema version the database is at (migrations applied). */
  schemaVersion(): Promise<number>
  close(): Promise<void>
}

export const entryChecksumOf = (content: string) => 'sha256:' + sha256(content)

export function repoChecksum(version: number, checksums: Iterable<[string, string]>): string {
  const lines = [...checksums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, c]) => `${k}\0${c}`)
  return 'sha256:' + sha256(`${version}\n${lines.join('\n')}`)
}

/**
 * Whether an `If-Match` header, as the client sent it, rules a write out: it names another version
 * than `checksum` (undefined: the repo has none yet). `*` passes; tags are compared by value
 * (etag.ts), so one a proxy weakened still names its version.
 */
export const ifMatchFails = (ifMatch: string | undefined, checksum: string | undefined): boolean =>
  ifMatch !== undefined &&
  ifMatch.trim() !== '*' &&
  (checksum === undefined || !etagHeaderNames(ifMatch, checksum))

/**
 * The name `store` keeps `repo` under. Owner and repo names are case-insensitive where they come
 * from (GitHub, GitLab: `ACME/Shop` clones the same repo as `acme/shop`), so teammates whose origins
 * differ in case share one team memory: an existing repo of that name in any case, else the name
 * in lower case.
 */
export async function storedRepoName(store: TeamStore, repo: string): Promise<string> {
  return (await store.repoSpelledAs(repo)) ?? repo.toLowerCase()
}

/** Whether a token's repos (`*`: every repo) include `repo`, whose case does not matter (see storedRepoName). */
export const tokenAllows = (repos: readonly string[], repo: string) =>
  repos.some((r) => r === '*' || r.toLowerCase() === repo.toLowerCase())
