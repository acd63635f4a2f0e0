import type { MemdirEvent } from '../../../src-shared/api.js'
import { isMethodName, parseArgs, type Handlers } from '../../../src-shared/contract.js'
import { type RpcResult, toErrorValue } from '../../../src-shared/errors.js'

export type { Handlers }

/**
 * The router: a method name and arguments from any transport, checked against the contract (an
 * unknown method or a bad argument never reaches a handler), dispatched, and the result or the
 * failure returned as a value. The table is typed `Handlers`: a method without a handler, or a
 * handler without a method, does not compile.
 */
export function createRouter(handlers: Handlers) {
  return async function call(method: unknown, args: unknown): Promise<RpcResult<unknown>> {
    if (!isMethodName(method))
      return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown method: ${String(method)}` } }
    const parsed = parseArgs(method, args)
    if (!parsed.ok) return { ok: false, error: { code: 'BAD_REQUEST', message: parsed.message } }
    try {
      const handler = handlers[method] as (a: unknown) => Promise<unknown>
      return { ok: true, value: await handler(parsed.value) }
    } catch (e) {
      return { ok: false, error: toErrorValue(e) }
    }
  }
}

/** The host's event bus: every event the UI follows, to every listener. */
export function createEventBus() {
  const listeners = new Set<(e: MemdirEvent) => void>()
  return {
    emit: (e: MemdirEvent) => listeners.forEach((l) => l(e)),
    on(listener: (e: MemdirEvent) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear: () => listeners.clear(),
  }
}

export type EventBus = ReturnType<typeof createEventBus>
