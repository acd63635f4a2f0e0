import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import { METHODS, type MethodName } from '../../src-shared/api.js'
import type { Host } from '../host/host.js'
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
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
}

const MAX_RPC_BYTES = 2 * 1024 * 1024

function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_RPC_BYTES) reject(new Error('request too large'))
      else chunks.push(c)
    })
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'))
      } catch {
        reject(new Error('body is not JSON'))
      }
    })
    req.on('error', reject)
  })
}

/**
 * The browser transport: the same router over HTTP (POST /rpc) and a WebSocket (/events),
 * on 127.0.0.1 only, every request carrying the per-launch token.
 */
export async function startWebServer(opts: WebServerOptions): Promise<RunningWebServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url')
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === '/rpc') {
      if (req.method !== 'POST') {
        res.writeHead(405).end()
        return
      }
      if (!sameToken(req.headers['x-memdir-token'] as string | undefined, token)) {
        res.writeHead(401, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({ ok: false, error: { code: 'UNAUTHORIZED', message: 'missing or wrong token' } }),
        )
        return
      }
      let body: { method?: string; args?: unknown }
      try {
        body = (await readJson(req)) as typeof body
      } catch (e) {
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ ok: false, error: { code: 'BAD_REQUEST', message: (e as Error).message } }))
        return
      }
      const method = body.method as MethodName
      const result = METHODS.includes(method)
        ? await opts.host.call(method, body.args)
        : { ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown method: ${String(body.method)}` } }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(JSON.stringify(result))
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end()
      return
    }
    const file = await readStatic(opts.rendererDir, url.pathname)
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': file.type, ...SECURITY_HEADERS })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  })

  const wss = new WebSocketServer({ noServer: true })
  const sockets = new Set<WebSocket>()
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const origin = req.headers.origin
    const local = !origin || /^http:\/\/127\.0\.0\.1:\d+$/.test(origin)
    if (
      url.pathname !== '/events' ||
      !local ||
      !sameToken(url.searchParams.get('token') ?? undefined, token)
    ) {
      socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n')
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws)
      ws.on('close', () => sockets.delete(ws))
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
