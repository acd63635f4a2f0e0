import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { validateTeamMemKey } from '../src-main/core/team/keys.js'
import { check } from '../src-shared/schema-common.js'
import {
  TEAM_MEMORY_PATH,
  TeamMemoryPutBodySchema,
  TeamMemoryQuerySchema,
  type TeamMemoryDocument,
} from '../src-shared/team-api.js'
import { quoteEtag, type RepoSnapshot, type TeamStore } from './store.js'

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

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > limit) {
        reject(new HttpError(413, `request body over ${limit} bytes`))
        req.resume()
        return
      }
      chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

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

/** The PUT body through its schema, every key through the client's own key check. */
function validEntries(body: unknown): Record<string, string> {
  const r = check(TeamMemoryPutBodySchema, body)
  if (!r.ok) throw new HttpError(400, `body must be {"entries": {key: text}}: ${r.message}`)
  for (const k of Object.keys(r.value.entries)) {
    try {
      validateTeamMemKey(k)
    } catch (e) {
      throw new HttpError(400, `invalid key: ${(e as Error).message}`)
    }
  }
  return r.value.entries
}

/** The self-hostable team memory server: exactly the API of SPEC §9/§10. */
export function createTeamServer(opts: TeamServerOptions): Server {
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024
  const maxEntries = opts.maxEntries ?? 10_000
  const orgId = opts.organizationId ?? 'self-hosted'

  const limit = opts.authFailures ?? { max: 20, windowMs: 60_000 }
  // Failed authentications per client IP in the current window (bounded: the oldest are dropped).
  const failures = new Map<string, { n: number; since: number }>()
  const ipOf = (req: IncomingMessage) => {
    const fwd = opts.trustProxy ? req.headers['x-forwarded-for'] : undefined
    const last = typeof fwd === 'string' ? fwd.split(',').at(-1)?.trim() : undefined
    return last || req.socket.remoteAddress || 'unknown'
  }
  function failedAuth(req: IncomingMessage, message: string): HttpError {
    const ip = ipOf(req)
    const now = Date.now()
    const f = failures.get(ip)
    if (!f || now - f.since > limit.windowMs) failures.set(ip, { n: 1, since: now })
    else f.n++
    if (failures.size > 10_000) failures.delete(failures.keys().next().value as string)
    return new HttpError(401, message)
  }

  async function authorize(req: IncomingMessage, repo: string) {
    const f = failures.get(ipOf(req))
    if (f && Date.now() - f.since <= limit.windowMs && f.n >= limit.max) {
      const retry = Math.ceil((f.since + limit.windowMs - Date.now()) / 1000)
      throw new HttpError(
        429,
        'too many failed authentications; try again later',
        {},
        { 'retry-after': String(retry) },
      )
    }
    const auth = req.headers.authorization ?? ''
    const m = /^Bearer\s+(\S+)$/i.exec(auth)
    if (!m) throw failedAuth(req, 'missing bearer token')
    const repos = await opts.store.tokenRepos(m[1] as string)
    if (!repos) throw failedAuth(req, 'unknown, revoked or expired token')
    if (!repos.includes(repo) && !repos.includes('*'))
      throw new HttpError(403, `token is not allowed for ${repo}`)
  }

  async function handle(req: IncomingMessage, res: ServerResponse, seen: { repo?: string }) {
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      throw new HttpError(400, 'bad request target')
    }
    if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' })
    if (url.pathname === '/readyz') {
      try {
        await opts.store.ping()
        return send(res, 200, { status: 'ready', schemaVersion: await opts.store.schemaVersion() })
      } catch (e) {
        return send(res, 503, { status: 'unavailable', error: (e as Error).message })
      }
    }
    if (url.pathname !== TEAM_MEMORY_PATH) throw new HttpError(404, 'not found')
    const query = check(TeamMemoryQuerySchema, Object.fromEntries(url.searchParams))
    if (!query.ok) throw new HttpError(400, query.message)
    const { repo, view } = query.value
    seen.repo = repo
    await authorize(req, repo)

    if (req.method === 'GET') {
      const snap = await opts.store.getRepo(repo)
      if (!snap) throw new HttpError(404, 'no team memory for this repo yet')
      const etag = quoteEtag(snap.checksum)
      const headers = { etag, 'last-modified': new Date(snap.lastModified).toUTCString() }
      if (req.headers['if-none-match'] === etag) return send(res, 304, undefined, headers)
      return send(res, 200, documentOf(orgId, repo, snap, view !== 'hashes'), headers)
    }
    if (req.method === 'PUT') {
      const raw = await readBody(req, maxBody)
      let body: unknown
      try {
        body = JSON.parse(raw)
      } catch {
        throw new HttpError(400, 'body is not JSON')
      }
      const ifMatch = req.headers['if-match']
      const r = await opts.store.upsert(
        repo,
        validEntries(body),
        typeof ifMatch === 'string' ? ifMatch : undefined,
        maxEntries,
      )
      if (r.status === 'conflict') throw new HttpError(412, 'team memory changed since that ETag')
      if (r.status === 'too_many') {
        return send(res, 413, {
          error: {
            message: 'too many entries',
            details: {
              error_code: 'team_memory_too_many_entries',
              max_entries: r.maxEntries,
              received_entries: r.receivedEntries,
            },
          },
        })
      }
      return send(
        res,
        200,
        { checksum: r.checksum, lastModified: r.lastModified },
        { etag: quoteEtag(r.checksum) },
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
