import { BodyCodingError, readBodyWithin, TOO_LARGE } from '../src-shared/http-body.js'
import { parseJsonOr, splitByteOrderMark } from '../src-shared/json.js'
import { etagHeaderNames, strongEtag } from '../src-shared/etag.js'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { messageOf, rethrowUnless } from '../src-shared/errors.js'
import { memoryNameProblem } from '../src-shared/memory-names.js'
import { check } from '../src-shared/schema-common.js'
import { describeFindings, redactedName, scanForSecrets, secretsInNames } from '../src-shared/secret-scan.js'
import { teamEntryProblem } from '../src-shared/team-entry-text.js'
import {
  MAX_TEAM_FILE_BYTES,
  TEAM_ERROR_CODES,
  TEAM_MEMORY_PATH,
  TeamMemoryQuerySchema,
  type TeamMemoryDocument,
} from '../src-shared/team-api.js'
import { type RepoSnapshot, storedRepoName, type TeamStore, tokenAllows } from './store.js'

export interface TeamServerOptions {
  store: TeamStore
  /** Request bodies above this get 413 (default 1 MiB; clients batch at 200,000 bytes). */
  maxBodyBytes?: number
  /** Entries one repo may hold (default 10,000). */
  maxEntries?: number
  organizationId?: string
  /** One JSON line per request (method, path, repo, status, bytes, ms — never tokens or contents). */
  accessLog?: (line: string) => void
  /** Failed authentications one client IP may make per window before it gets 429 (default 20 per minute). */
  authFailures?: { max: number; windowMs: number }
  /** Behind a reverse proxy: the client IP is the last address the proxy added to X-Forwarded-For. */
  trustProxy?: boolean
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  if (body === undefined) {
    res.writeHead(status, headers)
    res.end()
    return
  }
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

const NOT_JSON = Symbol('not JSON')

function documentOf(
  orgId: string,
  repo: string,
  snap: RepoSnapshot,
  withEntries: boolean,
): TeamMemoryDocument {
  const entryChecksums: Record<string, string> = {}
  const entries: Record<string, string> = {}
  for (const [k, v] of [...snap.entries].sort(([a], [b]) => (a < b ? -1 : 1))) {
    entryChecksums[k] = v.checksum
    if (withEntries) entries[k] = v.content
  }
  return {
    organizationId: orgId,
    repo,
    version: snap.version,
    lastModified: snap.lastModified,
    checksum: snap.checksum,
    content: withEntries ? { entries, entryChecksums } : { entryChecksums },
  }
}

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * The PUT body's entries, read from the parsed JSON itself: every own key — `__proto__` too,
 * which a schema's output object would silently drop — goes through the one memory-name rule
 * the clients use, so nothing is answered 200 that is not stored as sent.
 */
async function validEntries(body: unknown): Promise<Map<string, string>> {
  if (!isPlainObject(body) || !isPlainObject(body.entries) || Object.keys(body).some((k) => k !== 'entries'))
    throw new HttpError(400, 'body must be {"entries": {key: text}}')
  // First: every later answer about an entry names its key.
  await refuseSecretKeys(Object.keys(body.entries))
  const out = new Map<string, string>()
  for (const key of Object.keys(body.entries)) {
    const text = body.entries[key]
    if (typeof text !== 'string') throw new HttpError(400, `entries.${key}: the content must be a string`)
    const problem = memoryNameProblem(key)
    if (problem)
      throw new HttpError(400, `invalid key: ${problem.message}`, {
        details: { error_code: TEAM_ERROR_CODES.invalidKey, key, rule: problem.code },
      })
    const bytes = Buffer.byteLength(text)
    if (bytes > MAX_TEAM_FILE_BYTES)
      throw new HttpError(413, `${key} is ${bytes} bytes; an entry may have at most ${MAX_TEAM_FILE_BYTES}`, {
        details: { error_code: TEAM_ERROR_CODES.entryTooLarge, key, max_bytes: MAX_TEAM_FILE_BYTES },
      })
    const refused = teamEntryProblem(key, text)
    if (refused)
      throw new HttpError(422, `${key} ${refused.message}; it is not stored`, {
        details: {
          error_code: refused.kind === 'not_text' ? TEAM_ERROR_CODES.notText : TEAM_ERROR_CODES.linkOutside,
          key,
        },
      })
    out.set(key, text)
  }
  return out
}

/**
 * A key that holds a credential (a token used as a file name) would be written to every teammate's
 * disk and listed everywhere: refused like one in the text, and the reply cannot name the key.
 */
async function refuseSecretKeys(keys: readonly string[]): Promise<void> {
  const found = await secretsInNames(keys)
  const [key, findings] = [...found][0] ?? []
  if (!key || !findings) return
  const shown = await redactedName(key)
  throw new HttpError(
    422,
    `${shown} holds ${describeFindings(findings)}: secrets are never stored in team memory, not even as a name; rename the file`,
    {
      details: {
        error_code: TEAM_ERROR_CODES.secret,
        key_redacted: shown,
        rules: findings.map((f) => ({ rule: f.ruleId, description: f.description, in_key: true })),
      },
    },
  )
}

/**
 * The secret firewall the clients run, run again here: any client can PUT (an old Memdir, a
 * script, Claude Code itself), and what is stored reaches every teammate's disk. The reply names
 * the key and the rule, never the secret.
 */
async function refuseSecrets(entries: Map<string, string>): Promise<void> {
  for (const [key, text] of entries) {
    const findings = await scanForSecrets(text)
    if (!findings.length) continue
    throw new HttpError(
      422,
      `${key} holds ${describeFindings(findings)}: secrets are never stored in team memory`,
      {
        details: {
          error_code: TEAM_ERROR_CODES.secret,
          key,
          rules: findings.map((f) => ({ rule: f.ruleId, description: f.description, line: f.line })),
        },
      },
    )
  }
}

/** The self-hostable team memory server: exactly the API of SPEC §9/§10. */
export function createTeamServer(opts: TeamServerOptions): Server {
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024
  const maxEntries = opts.maxEntries ?? 10_000
  const orgId = opts.organizationId ?? 'self-hosted'

  const limit = opts.authFailures ?? { max: 20, windowMs: 60_000 }
  const ipOf = (req: IncomingMessage) => {
    const fwd = opts.trustProxy ? req.headers['x-forwarded-for'] : undefined
    const last = typeof fwd === 'string' ? fwd.split(',').at(-1)?.trim() : undefined
    return last || req.socket.remoteAddress || 'unknown'
  }

  /**
   * A valid token always passes: the limiter only counts failures (in the database, shared by every
   * instance) and answers 429 instead of 401 once an address has made too many in the window.
   */
  async function failedAuth(req: IncomingMessage, message: string): Promise<HttpError> {
    const f = await opts.store.noteAuthFailure(ipOf(req), limit.windowMs)
    if (f.count <= limit.max) return new HttpError(401, message)
    const retry = Math.max(1, Math.ceil((f.since + limit.windowMs - Date.now()) / 1000))
    return new HttpError(
      429,
      'too many failed authentications; try again later',
      {},
      { 'retry-after': String(retry) },
    )
  }

  async function authorize(req: IncomingMessage, repo: string) {
    const auth = req.headers.authorization ?? ''
    const m = /^Bearer\s+(\S+)$/i.exec(auth)
    if (!m) throw await failedAuth(req, 'missing bearer token')
    const repos = await opts.store.tokenRepos(m[1] as string)
    if (!repos) throw await failedAuth(req, 'unknown, revoked or expired token')
    if (!tokenAllows(repos, repo)) throw new HttpError(403, `token is not allowed for ${repo}`)
  }

  async function handle(req: IncomingMessage, res: ServerResponse, seen: { repo?: string }) {
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch (e) {
      rethrowUnless(e instanceof TypeError, e)
      throw new HttpError(400, 'bad request target')
    }
    if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' })
    if (url.pathname === '/readyz') {
      try {
        await opts.store.ping()
        return send(res, 200, { status: 'ready', schemaVersion: await opts.store.schemaVersion() })
      } catch (e) {
        return send(res, 503, { status: 'unavailable', error: messageOf(e) })
      }
    }
    if (url.pathname !== TEAM_MEMORY_PATH) throw new HttpError(404, 'not found')
    const query = check(TeamMemoryQuerySchema, Object.fromEntries(url.searchParams))
    if (!query.ok) throw new HttpError(400, query.message)
    const { view, key } = query.value
    seen.repo = query.value.repo
    await authorize(req, query.value.repo)
    const repo = await storedRepoName(opts.store, query.value.repo)

    if (req.method === 'GET') {
      const snap = await opts.store.getRepo(repo)
      if (!snap) throw new HttpError(404, 'no team memory for this repo yet')
      const etag = strongEtag(snap.checksum)
      const headers = { etag, 'last-modified': new Date(snap.lastModified).toUTCString() }
      const ifNoneMatch = req.headers['if-none-match']
      if (ifNoneMatch && etagHeaderNames(ifNoneMatch, snap.checksum))
        return send(res, 304, undefined, headers)
      return send(res, 200, documentOf(orgId, repo, snap, view !== 'hashes'), headers)
    }
    if (req.method === 'PUT') {
      const raw = await readBodyWithin(req, maxBody).catch((e: unknown) => {
        if (e instanceof BodyCodingError) throw new HttpError(e.status, e.message)
        throw e
      })
      if (raw === TOO_LARGE) throw new HttpError(413, `request body over ${maxBody} bytes`)
      // A client may send a byte order mark first (PowerShell 5's UTF-8); JSON allows ignoring it.
      const body = parseJsonOr(splitByteOrderMark(raw).rest, NOT_JSON)
      if (body === NOT_JSON) throw new HttpError(400, 'body is not JSON')
      const entries = await validEntries(body)
      await refuseSecrets(entries)
      const ifMatch = req.headers['if-match']
      const r = await opts.store.upsert(
        repo,
        Object.fromEntries(entries),
        typeof ifMatch === 'string' ? ifMatch : undefined,
        maxEntries,
      )
      if (r.status === 'conflict') throw new HttpError(412, 'team memory changed since that ETag')
      if (r.status === 'too_many') {
        return send(res, 413, {
          error: {
            message: `too many entries: ${repo} holds ${r.heldEntries} of at most ${r.maxEntries}, and this push would make ${r.receivedEntries}`,
            details: {
              error_code: 'team_memory_too_many_entries',
              max_entries: r.maxEntries,
              received_entries: r.receivedEntries,
              held_entries: r.heldEntries,
            },
          },
        })
      }
      if (r.status === 'twin')
        throw new HttpError(
          422,
          `${r.key} cannot join the existing ${r.existing}: ${r.why}. Rename one of them`,
          { details: { error_code: TEAM_ERROR_CODES.keyCollision, key: r.key, existing: r.existing } },
        )
      return send(
        res,
        200,
        { checksum: r.checksum, lastModified: r.lastModified },
        { etag: strongEtag(r.checksum) },
      )
    }
    if (req.method === 'DELETE') {
      // Any stored key can be removed, also one no client can hold (an older server took it).
      if (!key) throw new HttpError(400, 'DELETE needs ?key=<the key to remove>')
      const ifMatch = req.headers['if-match']
      const r = await opts.store.deleteKeys(repo, [key], typeof ifMatch === 'string' ? ifMatch : undefined)
      if (r.status === 'conflict') throw new HttpError(412, 'team memory changed since that ETag')
      if (r.status === 'not_found')
        throw new HttpError(404, `${repo} has no key ${JSON.stringify(key)}`, {
          details: { error_code: TEAM_ERROR_CODES.noSuchKey, key },
        })
      return send(
        res,
        200,
        { checksum: r.checksum, lastModified: r.lastModified, deleted: r.deleted },
        { etag: strongEtag(r.checksum) },
      )
    }
    throw new HttpError(405, 'method not allowed')
  }

  const server = createServer((req, res) => {
    const started = performance.now()
    const seen: { repo?: string } = {}
    if (opts.accessLog) {
      const log = opts.accessLog
      res.on('finish', () =>
        log(
          JSON.stringify({
            time: new Date().toISOString(),
            method: req.method,
            path: (req.url ?? '/').split('?')[0],
            ...(seen.repo ? { repo: seen.repo } : {}),
            status: res.statusCode,
            bytes: Number(res.getHeader('content-length') ?? 0),
            ms: Math.round((performance.now() - started) * 10) / 10,
            ip: ipOf(req),
          }),
        ),
      )
    }
    handle(req, res, seen).catch((e) => {
      if (res.headersSent) return res.destroy()
      if (e instanceof HttpError)
        send(res, e.status, { error: { message: e.message, ...e.extra } }, e.headers)
      else send(res, 500, { error: { message: 'internal error' } })
    })
  })
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')
    else socket.destroy()
  })
  return server
}

export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const addr = server.address() as AddressInfo
  return `http://${host}:${addr.port}`
}

/**
 * Stops accepting connections, lets in-flight requests finish (idle keep-alive sockets are closed
 * at once), and after `graceMs` cuts whatever is left.
 */
export async function closeGracefully(server: Server, graceMs = 10_000): Promise<void> {
  const closed = new Promise<void>((r) => server.close(() => r()))
  server.closeIdleConnections()
  const timer = setTimeout(() => server.closeAllConnections(), graceMs)
  await closed
  clearTimeout(timer)
}
