import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { validateTeamMemKey } from '../src-main/core/team/keys.js'
import { describeIssues } from '../src-shared/schema-common.js'
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
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
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
  const r = TeamMemoryPutBodySchema.safeParse(body)
  if (!r.success)
    throw new HttpError(400, `body must be {"entries": {key: text}}: ${describeIssues(r.error)}`)
  for (const k of Object.keys(r.data.entries)) {
    try {
      validateTeamMemKey(k)
    } catch (e) {
      throw new HttpError(400, `invalid key: ${(e as Error).message}`)
    }
  }
  return r.data.entries
}

/** The self-hostable team memory server: exactly the API of SPEC §9/§10. */
export function createTeamServer(opts: TeamServerOptions): Server {
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024
  const maxEntries = opts.maxEntries ?? 10_000
  const orgId = opts.organizationId ?? 'self-hosted'

  async function authorize(req: IncomingMessage, repo: string) {
    const auth = req.headers.authorization ?? ''
    const m = /^Bearer\s+(\S+)$/i.exec(auth)
    if (!m) throw new HttpError(401, 'missing bearer token')
    const repos = await opts.store.tokenRepos(m[1] as string)
    if (!repos) throw new HttpError(401, 'unknown token')
    if (!repos.includes(repo) && !repos.includes('*'))
      throw new HttpError(403, `token is not allowed for ${repo}`)
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      throw new HttpError(400, 'bad request target')
    }
    if (url.pathname !== TEAM_MEMORY_PATH) throw new HttpError(404, 'not found')
    const query = TeamMemoryQuerySchema.safeParse(Object.fromEntries(url.searchParams))
    if (!query.success) throw new HttpError(400, describeIssues(query.error))
    const { repo, view } = query.data
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
    handle(req, res).catch((e) => {
      if (res.headersSent) return res.destroy()
      if (e instanceof HttpError) send(res, e.status, { error: { message: e.message, ...e.extra } })
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
