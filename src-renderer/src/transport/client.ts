import { createClient, type MemdirClient, type MemdirEvent, type MethodName } from '../../../src-shared/api'
import { RpcFailure, type RpcResult } from '../../../src-shared/errors'

declare global {
  interface Window {
    memdir?: MemdirClient
  }
}

/** Browser mode: the same API over POST /rpc and a WebSocket, with the launch token from the URL. */
function createWebClient(): MemdirClient {
  const params = new URLSearchParams(location.hash.slice(1))
  const token = params.get('token') ?? sessionStorage.getItem('memdir-token') ?? ''
  if (token) sessionStorage.setItem('memdir-token', token)
  const listeners = new Set<(e: MemdirEvent) => void>()
  let ws: WebSocket | undefined
  const connect = () => {
    ws = new WebSocket(`ws://${location.host}/events?token=${encodeURIComponent(token)}`)
    ws.onmessage = (m) => listeners.forEach((l) => l(JSON.parse(String(m.data)) as MemdirEvent))
    ws.onclose = () => setTimeout(connect, 1000)
  }
  connect()
  return createClient(
    async (method: MethodName, args: unknown) => {
      const res = await fetch('/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-memdir-token': token },
        body: JSON.stringify({ method, args }),
      })
      const result = (await res.json()) as RpcResult<unknown>
      if (!result.ok) throw new RpcFailure(result.error)
      return result.value
    },
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  )
}

/** In Electron the preload has set window.memdir; in a browser we build it here. */
export function getClient(): MemdirClient {
  window.memdir ??= createWebClient()
  return window.memdir
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
