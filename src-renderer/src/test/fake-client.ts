import type { MemdirClient, MemdirEvent, MethodName } from '../../../src-shared/api'
import { isMethodName, parseArgs, type Handlers } from '../../../src-shared/contract'
import { RpcFailure } from '../../../src-shared/errors'
import type { StoreDeps } from '../app/state'

export interface FakeClient {
  client: MemdirClient
  /** Every call that reached a handler, in order, with its checked arguments. */
  calls: { method: MethodName; args: unknown }[]
  /** Pushes an event to every listener, as the main process would. */
  emit: (e: MemdirEvent) => void
}

/**
 * A client built from the contract: each call's arguments are checked against the method's schema
 * in src-shared (as the main process's router does), and answered by `handlers`. A call the test did
 * not expect fails loudly instead of returning nothing.
 */
export function fakeClient(handlers: Partial<Handlers>): FakeClient {
  const calls: FakeClient['calls'] = []
  const listeners = new Set<(e: MemdirEvent) => void>()
  const client = new Proxy({} as MemdirClient, {
    get(_t, prop) {
      if (prop === 'onEvent')
        return (l: (e: MemdirEvent) => void) => {
          listeners.add(l)
          return () => listeners.delete(l)
        }
      if (!isMethodName(prop)) return undefined
      const method = prop
      return async (args?: unknown) => {
        const parsed = parseArgs(method, args)
        if (!parsed.ok) throw new RpcFailure({ code: 'BAD_REQUEST', message: parsed.message })
        const handler = handlers[method] as ((a: unknown) => unknown) | undefined
        if (!handler) throw new Error(`the test did not expect a call to ${method}`)
        calls.push({ method, args: parsed.value })
        return handler(parsed.value)
      }
    },
  })
  return { client, calls, emit: (e) => listeners.forEach((l) => l(e)) }
}

/** What a store needs beside its client, kept in memory. */
export function memoryDeps(client: MemdirClient): StoreDeps & { closed: () => boolean } {
  const kept = new Map<string, string>()
  let closed = false
  return {
    client,
    storage: { getItem: (k) => kept.get(k) ?? null, setItem: (k, val) => void kept.set(k, val) },
    closeWindow: () => {
      closed = true
    },
    closed: () => closed,
  }
}
