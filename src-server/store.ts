import { createHash, randomBytes } from 'node:crypto'

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
  | { status: 'too_many'; maxEntries: number; receivedEntries: number }

/** Storage behind the team server; SQLite and PostgreSQL implement it. */
export interface TeamStore {
  getRepo(repo: string): Promise<RepoSnapshot | undefined>
  /** Upserts `entries` (absent keys kept). `ifMatch` is the quoted ETag the client saw. */
  upsert(
    repo: string,
    entries: Record<string, string>,
    ifMatch: string | undefined,
    maxEntries: number,
  ): Promise<UpsertResult>
  addToken(repos: string[]): Promise<string>
  /** The repos a token may use, or undefined for an unknown token. */
  tokenRepos(token: string): Promise<string[] | undefined>
  close(): Promise<void>
}

export const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')
export const entryChecksumOf = (content: string) => 'sha256:' + sha256(content)

export function repoChecksum(version: number, checksums: Iterable<[string, string]>): string {
  const lines = [...checksums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, c]) => `${k}\0${c}`)
  return 'sha256:' + sha256(`${version}\n${lines.join('\n')}`)
}

export function newToken(): { token: string; hash: string } {
  const token = 'tmt_' + randomBytes(24).toString('base64url')
  return { token, hash: sha256(token) }
}

export const quoteEtag = (checksum: string) => `"${checksum}"`
