import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Chances per request (0..1) of each injected fault, and the most delay added before forwarding. */
export interface FaultRates {
  /** Answer 500 without forwarding. */
  error500: number
  /** Close the connection before the request reaches a server. */
  dropBefore: number
  /** Forward, let the server answer, then close the connection: the client never sees the answer. */
  dropAfter: number
  maxDelayMs: number
}

export interface ProxyStats {
  requests: number
  error500: number
  dropBefore: number
  dropAfter: number
  /** Upstream refused the connection (an instance was down): answered 502. */
  badGateway: number
  /** Per status the upstream answered. */
  upstreamStatus: Record<number, number>
  /** Time the upstream took, per forwarded request (ms). */
  upstreamMs: number[]
}

/** Entries of a PUT the upstream answered 200: what reached the server, whether or not the client heard. */
export type AcceptedPut = Record<string, string>

export interface FaultProxy {
  url: string
  stats: ProxyStats
  accepted: AcceptedPut[]
  /** Turns fault injection on or off (a convergence phase may want a calm network). */
  setFaults: (rates: FaultRates) => void
  close: () => Promise<void>
}

/** mulberry32: a seeded generator, so a failing run can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

interface Upstream {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, connection: 'close' },
        agent: false,
      },
      (res) => {
        readBody(res).then(
          (b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }),
          reject,
        )
      },
    )
    out.on('error', reject)
    out.end(body)
  })
}

function acceptedEntries(body: Buffer): AcceptedPut | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { entries?: Record<string, string> }
    return parsed.entries
  } catch {
    return undefined
  }
}

/**
 * A loopback load balancer in front of team-server instances (round-robin) that injects delays,
 * dropped connections and 500s, and records every PUT a server accepted.
 */
export async function startFaultProxy(
  upstreams: () => string[],
  rates: FaultRates,
  random: () => number,
): Promise<FaultProxy> {
  let faults = rates
  let next = 0
  const stats: ProxyStats = {
    requests: 0,
    error500: 0,
    dropBefore: 0,
    dropAfter: 0,
    badGateway: 0,
    upstreamStatus: {},
    upstreamMs: [],
  }
  const accepted: AcceptedPut[] = []

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    stats.requests++
    const body = await readBody(req)
    const roll = random()
    if (roll < faults.error500) {
      stats.error500++
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"injected"}')
      return
    }
    if (roll < faults.error500 + faults.dropBefore) {
      stats.dropBefore++
      req.socket.destroy()
      return
    }
    const dropAfter = roll < faults.error500 + faults.dropBefore + faults.dropAfter
    if (faults.maxDelayMs) await new Promise((r) => setTimeout(r, random() * faults.maxDelayMs))
    const targets = upstreams()
    const target = new URL(targets[next++ % targets.length] as string)
    const t = performance.now()
    let up: Upstream
    try {
      up = await forward(target, req, body)
    } catch {
      stats.badGateway++
      res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"upstream unreachable"}')
      return
    }
    stats.upstreamMs.push(performance.now() - t)
    stats.upstreamStatus[up.status] = (stats.upstreamStatus[up.status] ?? 0) + 1
    if (req.method === 'PUT' && up.status === 200) {
      const entries = acceptedEntries(body)
      if (entries) accepted.push(entries)
    }
    if (dropAfter) {
      stats.dropAfter++
      req.socket.destroy()
      return
    }
    const headers = { ...up.headers }
    delete headers['transfer-encoding']
    delete headers.connection
    headers['content-length'] = String(up.body.length)
    res.writeHead(up.status, headers).end(up.body)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    accepted,
    setFaults: (r) => (faults = r),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
