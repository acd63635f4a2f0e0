import { messageOf, rethrowUnless, type RpcResult } from '../../src-shared/errors.js'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { BodyCodingError, readBodyWithin, TOO_LARGE } from '../../src-shared/http-body.js'
import { parseJsonOr } from '../../src-shared/json.js'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type RawData, WebSocketServer, type WebSocket } from 'ws'
import type { Host } from '../host/app/host.js'
import { readStatic } from './static-files.js'

export interface WebServerOptions {
  host: Host
  rendererDir: string
  port?: number
  token?: string
}

export interface RunningWebServer {
  url: string
  token: string
  server: Server
  close: () => Promise<void>
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
}

const MAX_RPC_BYTES = 2 * 1024 * 1024

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }

  /** What a failed call answers, whichever way it came. */
  static of(e: unknown): HttpError {
    return e instanceof HttpError ? e : new HttpError(500, 'INTERNAL', messageOf(e))
  }

  result(): RpcResult<never> {
    return { ok: false, error: { code: this.code, message: this.message } }
  }
}

function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** `{method, args}` from a request body, or an HttpError saying what is wrong with it. */
function parseRpcBody(text: string | typeof TOO_LARGE): { method: unknown; args: unknown } {
  if (text === TOO_LARGE) throw new HttpError(413, 'TOO_LARGE', 'request too large')
  const NOT_JSON = Symbol('not JSON')
  const v = parseJsonOr(text, NOT_JSON)
  if (v === NOT_JSON) throw new HttpError(400, 'BAD_REQUEST', 'body is not JSON')
  return rpcRequestOf(v)
}

function rpcRequestOf(v: unknown): { method: unknown; args: unknown } {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new HttpError(400, 'BAD_REQUEST', 'body must be an object {method, args}')
  const { method, args } = v as { method?: unknown; args?: unknown }
  return { method, args }
}

/**
 * One call over the page's WebSocket: `{id, method, args}` in, `{rpc: id, result}` out (replies in
 * the order calls finish). A loopback fetch costs this VM's Chromium ~10 ms a call (p95 ~28 ms),
 * a socket message ~1.6 ms (p95 ~5 ms): every keystroke's search makes one. The socket was
 * opened with the token, from a local origin. A message without an id cannot be answered: the
 * socket is closed (the page opens another).
 */
async function answerOverSocket(
  ws: WebSocket,
  data: RawData,
  host: Host,
  inFlight: { n: number },
): Promise<void> {
  const v = parseJsonOr(String(data), undefined)
  const id = (v as { id?: unknown } | undefined)?.id
  if (typeof id !== 'number' || !Number.isSafeInteger(id))
    return ws.close(1008, 'expected {id, method, args}')
  let result: RpcResult<unknown>
  inFlight.n++
  try {
    if (inFlight.n > MAX_CALLS_IN_FLIGHT)
      throw new HttpError(
        429,
        'TOO_MANY_CALLS',
        `more than ${MAX_CALLS_IN_FLIGHT} calls at once on one socket`,
      )
    const { method, args } = rpcRequestOf(v)
    result = await host.call(method, args)
  } catch (e) {
    result = HttpError.of(e).result()
  } finally {
    inFlight.n--
  }
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ rpc: id, result }))
}

/**
 * Calls one socket may have unanswered at once; past it each further call is answered at once with
 * an error. The window makes a handful (its first screen, a search per keystroke): a page that
 * sends thousands would otherwise queue them all in the host.
 */
export const MAX_CALLS_IN_FLIGHT = 64

const json = (res: ServerResponse, status: number, body: unknown) => {
  if (res.headersSent) return res.end()
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
  res.end(JSON.stringify(body))
}

/**
 * The browser transport: the same router over a WebSocket (/events: calls and events) and HTTP
 * (POST /rpc: calls, while the socket is not open), on
 * 127.0.0.1 only, every request carrying the per-launch token. The Host header must name this
 * server (a DNS-rebinding page cannot reach it), and no request can take the process down: every
 * failure is answered with a status.
 */
export async function startWebServer(opts: WebServerOptions): Promise<RunningWebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url')
  let allowedHosts = new Set<string>()

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!allowedHosts.has(req.headers.host ?? ''))
      throw new HttpError(421, 'WRONG_HOST', 'unexpected Host header')
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1')
    } catch (e) {
      rethrowUnless(e instanceof TypeError, e)
      throw new HttpError(400, 'BAD_REQUEST', 'bad request target')
    }
    if (url.pathname === '/rpc') {
      if (req.method !== 'POST') throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'POST only')
      if (!sameToken(req.headers['x-memdir-token'] as string | undefined, token))
        throw new HttpError(401, 'UNAUTHORIZED', 'missing or wrong token')
      const body = await readBodyWithin(req, MAX_RPC_BYTES).catch((e: unknown) => {
        if (e instanceof BodyCodingError) throw new HttpError(e.status, 'BAD_REQUEST', e.message)
        throw e
      })
      const { method, args } = parseRpcBody(body)
      json(res, 200, await opts.host.call(method, args))
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'GET only')
    const file = await readStatic(opts.rendererDir, url.pathname)
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': file.type, ...SECURITY_HEADERS })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const err = HttpError.of(e)
      json(res, err.status, err.result())
    })
  })
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')
    else socket.destroy()
  })

  // A call over the socket is held to the size of one over POST /rpc (larger: the socket closes).
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_RPC_BYTES })
  const sockets = new Set<WebSocket>()
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy())
    let url: URL | undefined
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1')
    } catch (e) {
      rethrowUnless(e instanceof TypeError, e)
      url = undefined
    }
    const origin = req.headers.origin
    const local = !origin || [...allowedHosts].some((h) => origin === `http://${h}`)
    if (
      !url ||
      url.pathname !== '/events' ||
      !local ||
      !allowedHosts.has(req.headers.host ?? '') ||
      !sameToken(url.searchParams.get('token') ?? undefined, token)
    ) {
      socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n')
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws)
      ws.on('error', () => ws.terminate())
      ws.on('close', () => sockets.delete(ws))
      const inFlight = { n: 0 }
      ws.on('message', (data) => void answerOverSocket(ws, data, opts.host, inFlight))
    })
  })
  const unsubscribe = opts.host.onEvent((e) => {
    const msg = JSON.stringify(e)
    for (const ws of sockets) ws.send(msg)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])
  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    token,
    server,
    close: async () => {
      unsubscribe()
      for (const ws of sockets) ws.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
