import { TEAM_MEMORY_PATH } from './team-api.js'

/**
 * Where a project's team memory and its token may be sent. The settings page, `memdir secret set
 * --url`, MEMDIR_TEAM_URL and the sync itself all ask this one rule, so a URL one of them refuses
 * is never used by another.
 */

/** Hosts that never leave this machine: plain http to them carries nothing over a network. */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h)
}

/** Why `url` cannot be a team server's address, or undefined when it can. */
export function teamServerUrlProblem(url: string): string | undefined {
  let u: URL
  try {
    u = new URL(url.trim())
  } catch {
    return `not a URL: ${url}`
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return `${u.protocol} is not a web address: give the server's https:// URL`
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname))
    return `http://${u.host} would send the team token and every team memory unencrypted: use https:// (plain http only reaches a server on this machine)`
  if (u.username || u.password)
    return 'the URL holds a user name or password: put the token in the token field instead'
  if (u.search || u.hash) return 'give the server address without ?query or #fragment'
  return undefined
}

/**
 * Where a team server's memory API answers: its address's path, then the API's path. A server
 * behind a reverse proxy under a prefix (`https://tools.acme.dev/memdir`) keeps the prefix; an
 * address that already ends in the API's path is used as it is.
 */
export function teamMemoryEndpoint(url: string): URL {
  const u = new URL(url.trim())
  const prefix = u.pathname.replace(/\/+$/, '')
  u.pathname = prefix.endsWith(TEAM_MEMORY_PATH) ? prefix : prefix + TEAM_MEMORY_PATH
  u.search = ''
  u.hash = ''
  return u
}
