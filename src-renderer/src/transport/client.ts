import {
  fromRawClient,
  rawClientOver,
  type MemdirClient,
  type MemdirEvent,
  type RawClient,
} from '../../../src-shared/api'
import { rethrowUnless, type RpcResult } from '../../../src-shared/errors'

declare global {
  interface Window {
    /** Set by the Electron preload: results as values. */
    memdir?: RawClient
  }
}

export type ConnectionState = 'connected' | 'connecting' | 'disconnected' | 'unauthorized'

const connectionListeners = new Set<(s: ConnectionState) => void>()
let connection: ConnectionState = 'connected'

function setConnection(s: ConnectionState) {
  if (s === connection) return
  connection = s
  connectionListeners.forEach((l) => l(s))
}

/** The browser transport's link to the server (always `connected` in Electron). */
export function onConnectionChange(listener: (s: ConnectionState) => void): () => void {
  connectionListeners.add(listener)
  listener(connection)
  return () => connectionListeners.delete(listener)
}

const DISCONNECTED = {
  code: 'DISCONNECTED',
  message: 'Memdir is not reachable: the server stopped or is restarting. Reconnecting…',
}
const UNAUTHORIZED = {
  code: 'UNAUTHORIZED',
  message: 'This page’s access token is missing or no longer valid: open the URL that `memdir web` printed.',
}

/** A call sent over the socket, waiting for its reply. */
interface PendingCall {
  socket: WebSocket
  resolve: (r: RpcResult<unknown>) => void
}

/** A reply over the socket; anything else it carries is an event. */
function isReply(m: unknown): m is { rpc: number; result: RpcResult<unknown> } {
  return typeof (m as { rpc?: unknown }).rpc === 'number'
}

/**
 * Browser mode: the same API over one WebSocket (calls and events) with the launch token from the
 * URL; a call made while the socket is not open, and will not open, goes over POST /rpc (which
 * also tells a bad token from a server that is down). A loopback fetch costs Chromium ~10 ms a
 * call, a socket message ~2 ms: each keystroke's search makes one.
 */
function createWebClient(): RawClient {
  let token = ''
  const readToken = () => {
    const fromHash = new URLSearchParams(location.hash.slice(1)).get('token')
    token = fromHash ?? sessionStorage.getItem('memdir-token') ?? ''
    if (fromHash) sessionStorage.setItem('memdir-token', fromHash)
  }
  readToken()
  const listeners = new Set<(e: MemdirEvent) => void>()
  const pending = new Map<number, PendingCall>()
  let nextId = 1
  let ws: WebSocket | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  const connect = () => {
    clearTimeout(retry)
    ws?.close()
    const socket = new WebSocket(`ws://${location.host}/events?token=${encodeURIComponent(token)}`)
    ws = socket
    socket.onopen = () => {
      const wasDown = connection !== 'connected'
      setConnection('connected')
      // After a restart the server's state may differ from what the page shows: reload it.
      if (wasDown) listeners.forEach((l) => l({ type: 'memories/changed', paths: [] }))
    }
    socket.onmessage = (m) => {
      const msg = JSON.parse(String(m.data)) as unknown
      if (!isReply(msg)) return listeners.forEach((l) => l(msg as MemdirEvent))
      pending.get(msg.rpc)?.resolve(msg.result)
      pending.delete(msg.rpc)
    }
    socket.onclose = () => {
      // A call the closed socket carried may or may not have run: it fails as a dropped fetch would.
      for (const [id, call] of pending)
        if (call.socket === socket) {
          pending.delete(id)
          call.resolve({ ok: false, error: DISCONNECTED })
        }
      if (ws !== socket) return
      if (connection !== 'unauthorized') setConnection('disconnected')
      retry = setTimeout(connect, 1000)
    }
  }
  /** The socket once it is open; undefined when it is not, or closes before it opens. */
  const openSocket = (): Promise<WebSocket | undefined> | WebSocket | undefined => {
    const socket = ws
    if (socket?.readyState === WebSocket.OPEN) return socket
    if (socket?.readyState !== WebSocket.CONNECTING) return undefined
    return new Promise((resolve) => {
      socket.addEventListener('open', () => resolve(socket), { once: true })
      socket.addEventListener('close', () => resolve(undefined), { once: true })
    })
  }
  const overSocket = (socket: WebSocket, method: string, args: unknown) =>
    new Promise<RpcResult<unknown>>((resolve) => {
      const id = nextId++
      pending.set(id, { socket, resolve })
      socket.send(JSON.stringify({ id, method, args }))
    })
  const overHttp = async (method: string, args: unknown): Promise<RpcResult<unknown>> => {
    let res: Response
    try {
      res = await fetch('/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-memdir-token': token },
        body: JSON.stringify({ method, args }),
      })
    } catch (e) {
      rethrowUnless(e instanceof TypeError, e) // fetch's network failure
      setConnection('disconnected')
      return { ok: false, error: DISCONNECTED }
    }
    if (res.status === 401) {
      setConnection('unauthorized')
      return { ok: false, error: UNAUTHORIZED }
    }
    try {
      return (await res.json()) as RpcResult<unknown>
    } catch (e) {
      rethrowUnless(e instanceof SyntaxError, e)
      return {
        ok: false,
        error: { code: 'BAD_RESPONSE', message: `The server answered ${res.status} without a result.` },
      }
    }
  }
  // A new token in the URL (the server restarted and printed a new one): use it at once.
  window.addEventListener('hashchange', () => {
    readToken()
    setConnection('connecting')
    connect()
  })
  connect()
  return rawClientOver(
    async (method, args): Promise<RpcResult<unknown>> => {
      const socket = await openSocket()
      return socket ? overSocket(socket, method, args) : overHttp(method, args)
    },
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  )
}

let client: MemdirClient | undefined

/** In Electron the preload has set window.memdir; in a browser we build the transport here. */
export function getClient(): MemdirClient {
  client ??= fromRawClient(window.memdir ?? createWebClient())
  return client
}
