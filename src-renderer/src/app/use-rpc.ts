import { useCallback, useEffect, useState } from 'react'
import type { ArgsOf, MemdirEvent, MethodName, ResultOf } from '../../../src-shared/api'
import { errorMessage } from '../lib/format'
import { getClient } from '../transport/client'
import { useStore } from './store'

/**
 * The events after which a read's answer may be stale: the view holding it fetches it again. A view
 * reads only these methods through useRpc.
 */
export const INVALIDATED_BY = {
  'index/get': ['memories/changed', 'settings/changed', 'workspace/changed'],
  'prompt/get': ['memories/changed', 'settings/changed', 'workspace/changed'],
  // A preview may ask the model (paid): it runs only when the user asks, never on an event.
  'recall/preview': [],
  'history/list': ['memories/changed', 'workspace/changed'],
  'history/diff': ['workspace/changed'],
  'review/list': ['review/changed', 'workspace/changed'],
  'dream/status': ['activity', 'memories/changed', 'settings/changed', 'workspace/changed'],
  'integrations/get': ['settings/changed', 'workspace/changed'],
} satisfies Partial<Record<MethodName, readonly MemdirEvent['type'][]>>

type Read = keyof typeof INVALIDATED_BY

export interface RpcState<T> {
  data?: T
  error?: string
  loading: boolean
  /** Fetches again now (after the view changed something itself). */
  reload: () => void
}

/**
 * The one way a view reads data: calls `method` with `args` (`null`: not yet, e.g. a preview the
 * user has not asked for), keeps the answer while a newer one is on its way, and fetches again when
 * an event in `INVALIDATED_BY[method]` arrives.
 */
export function useRpc<M extends Read>(
  method: M,
  ...[args]: ArgsOf<M> extends undefined ? [] : [ArgsOf<M> | null]
): RpcState<ResultOf<M>> {
  const key = args === null ? null : JSON.stringify(args ?? null)
  const epoch = useStore((s) =>
    (INVALIDATED_BY[method] as readonly MemdirEvent['type'][]).reduce(
      (n, t) => n + (s.eventCounts[t] ?? 0),
      0,
    ),
  )
  const [reloads, setReloads] = useState(0)
  const [state, setState] = useState<{ data?: ResultOf<M>; error?: string; loading: boolean }>({
    loading: key !== null,
  })
  useEffect(() => {
    if (key === null) return
    let current = true
    setState((s) => ({ ...s, loading: true }))
    const call = getClient()[method] as (a?: unknown) => Promise<ResultOf<M>>
    call(JSON.parse(key) ?? undefined).then(
      (data) => current && setState({ data, loading: false }),
      (e: unknown) => current && setState((s) => ({ data: s.data, error: errorMessage(e), loading: false })),
    )
    return () => {
      current = false
    }
  }, [method, key, epoch, reloads])
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  // Not asked (any more): no answer, not even the last one.
  if (key === null) return { loading: false, reload }
  return { ...state, reload }
}
