import { createHash, randomBytes } from 'node:crypto'

/** Team server tokens: how both stores make, keep and judge them (only the hash is ever stored). */

export const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

export interface TokenInfo {
  id: string
  repos: string[]
  createdAt: string
  expiresAt?: string
  revokedAt?: string
}

/** A token's public id: the first 12 hex digits of its hash. */
export const tokenIdOf = (hash: string) => hash.slice(0, 12)

export function tokenUsable(
  row: { expires_at?: string | null; revoked_at?: string | null },
  now = Date.now(),
) {
  if (row.revoked_at) return false
  return !row.expires_at || Date.parse(row.expires_at) > now
}

/** A new token and the row both stores insert for it: only its hash is ever kept. */
export function newTokenRow(repos: string[], expiresAt?: number): { token: string; row: TokenRow } {
  const token = 'tmt_' + randomBytes(24).toString('base64url')
  return {
    token,
    row: {
      hash: sha256(token),
      repos: JSON.stringify(repos),
      created_at: new Date().toISOString(),
      expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
      revoked_at: null,
    },
  }
}

/** The repos a stored token may use now; undefined for no row, an expired or a revoked token. */
export const usableRepos = (row: Pick<TokenRow, 'repos' | 'expires_at' | 'revoked_at'> | undefined) =>
  row && tokenUsable(row) ? (JSON.parse(row.repos) as string[]) : undefined

/** A token row as both stores keep it. */
export interface TokenRow {
  hash: string
  repos: string
  created_at: string
  expires_at: string | null
  revoked_at: string | null
}

export function tokenInfo(r: TokenRow): TokenInfo {
  return {
    id: tokenIdOf(r.hash),
    repos: JSON.parse(r.repos) as string[],
    createdAt: r.created_at,
    ...(r.expires_at ? { expiresAt: r.expires_at } : {}),
    ...(r.revoked_at ? { revokedAt: r.revoked_at } : {}),
  }
}
