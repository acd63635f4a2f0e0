import type { RpcResult } from './errors.js'
import { RpcFailure } from './errors.js'
import type { ArgsOf, MethodName, ResultOf } from './contract.js'
import type { ActivityItem, SettingsView, TeamStatus, WorkspaceInfo } from './types.js'

export type { ArgsOf, MethodName, ResultOf } from './contract.js'

/** Every call the UI can make (see contract.ts for the argument schemas). */
export type MemdirApi = {
  [M in MethodName]: ArgsOf<M> extends undefined
    ? () => ResultOf<M>
    : undefined extends ArgsOf<M>
      ? (a?: ArgsOf<M>) => ResultOf<M>
      : (a: ArgsOf<M>) => ResultOf<M>
}

/** Events pushed to the UI. */
export type MemdirEvent =
  | { type: 'memories/changed'; paths: string[] }
  | { type: 'activity'; item: ActivityItem }
  | { type: 'team/status'; status: TeamStatus }
  | { type: 'workspace/changed'; info: WorkspaceInfo }
  | { type: 'review/changed' }
  | { type: 'settings/changed'; settings: SettingsView }
  /** Electron: the user chose Save in the close-window dialog; the page saves, then closes. */
  | { type: 'app/saveAndClose' }

type Subscribe = (listener: (e: MemdirEvent) => void) => () => void

/**
 * What a transport exposes (the Electron preload as `window.memdir`, the browser client): results
 * as values, since custom Error properties do not survive contextBridge.
 */
export type RawClient = {
  [M in MethodName]: (...args: Parameters<MemdirApi[M]>) => Promise<RpcResult<ResultOf<M>>>
} & { onEvent: Subscribe }

/** What the renderer calls: the same functions, throwing RpcFailure (built in the renderer's own world). */
export type MemdirClient = {
  [M in MethodName]: (...args: Parameters<MemdirApi[M]>) => Promise<ResultOf<M>>
} & { onEvent: Subscribe }

/** Builds the raw client object from one `invoke` and a method list (the preload). */
export function createRawClient(
  methods: readonly MethodName[],
  invoke: (method: MethodName, args: unknown) => Promise<RpcResult<unknown>>,
  subscribe: Subscribe,
): RawClient {
  const client: Record<string, unknown> = { onEvent: subscribe }
  for (const m of methods) client[m] = (args?: unknown) => invoke(m, args)
  return client as RawClient
}

/** A raw client over one `invoke`, for any method name (the browser transport: no method list needed). */
export function rawClientOver(
  invoke: (method: string, args: unknown) => Promise<RpcResult<unknown>>,
  subscribe: Subscribe,
): RawClient {
  return new Proxy({} as RawClient, {
    get: (_target, prop) =>
      prop === 'onEvent'
        ? subscribe
        : typeof prop === 'string'
          ? (args?: unknown) => invoke(prop, args)
          : undefined,
  })
}

/** The throwing client over a raw one; needs no method list (the renderer does not load the schemas). */
export function fromRawClient(raw: RawClient): MemdirClient {
  return new Proxy({} as MemdirClient, {
    get(_target, prop) {
      if (prop === 'onEvent') return raw.onEvent
      const fn = (raw as unknown as Record<string | symbol, unknown>)[prop]
      if (typeof fn !== 'function') return undefined
      return async (args?: unknown) => {
        const r = (await (fn as (a?: unknown) => Promise<RpcResult<unknown>>)(args)) as RpcResult<unknown>
        if (!r.ok) throw new RpcFailure(r.error)
        return r.value
      }
    },
  })
}
