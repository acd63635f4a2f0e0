import type { StateCreator } from 'zustand'
import { rethrowUnless, RpcFailure } from '../../../../src-shared/errors'
import type { MemoryListItem, WorkspaceSummary } from '../../../../src-shared/types'
import type { MemorySlice, Store, StoreDeps } from '../../app/state'
import { inOrder } from '../../lib/in-order'

const LIST_KEY = 'memdir.listCollapsed'
/** How many of the newest memories the window's first screen asks for before the whole list. */
export const FIRST_SCREEN = 300

export const createMemorySlice =
  ({ client, storage }: StoreDeps): StateCreator<Store, [], [], MemorySlice> =>
  (set, get) => {
    let searchSeq = 0
    const listed = inOrder()
    /** The whole list; the open workspace's count follows it, in the same update. */
    const showWhole = (memories: MemoryListItem[]) => {
      const whole = { memories, loaded: true, listPartial: false }
      set({ ...whole, workspaces: pickerCounts({ ...get(), ...whole }) })
    }
    const runSearch = async (query: string) => {
      const seq = ++searchSeq
      if (!query.trim()) return set({ searchHits: undefined, searchedFor: undefined })
      try {
        const hits = await client['memory/search']({ query })
        if (seq === searchSeq) set({ searchHits: hits, searchedFor: query })
      } catch (e) {
        // The list keeps the last results; a dead connection shows in the banner.
        rethrowUnless(e instanceof RpcFailure, e)
      }
    }
    return {
      memories: [],
      loaded: false,
      listPartial: false,
      query: '',
      typeFilter: 'all',
      scopeFilter: 'all',
      setQuery: (query) => {
        set({ query })
        void runSearch(query)
      },
      setTypeFilter: (typeFilter) => set({ typeFilter }),
      setScopeFilter: (scopeFilter) => set({ scopeFilter }),
      clearFilters: () => {
        set({
          query: '',
          searchHits: undefined,
          searchedFor: undefined,
          typeFilter: 'all',
          scopeFilter: 'all',
        })
        searchSeq++
      },
      refreshMemories: async () => {
        await listed(client['memory/list'](), showWhole)
        if (get().query.trim()) void runSearch(get().query)
      },
      loadFirstMemories: async () => {
        // The first screen's rows first: at 10,000 memories the whole list is ~2 MB, which takes
        // this long again to reach the page and be read.
        const first = await client['memory/list']({ first: FIRST_SCREEN })
        // Fewer than asked for: that is every memory (unless a refresh has answered since: it is as new).
        if (first.length < FIRST_SCREEN) {
          if (!get().loaded) showWhole(first)
          return
        }
        if (!get().loaded) set({ memories: first, loaded: true, listPartial: true })
        // A refresh (a change on disk, a reconnect) may have brought the whole list meanwhile: at
        // 10,000 memories asking again would fetch ~2 MB for nothing.
        else if (!get().listPartial) return
        await get().refreshMemories()
      },
      listCollapsed: storage.getItem(LIST_KEY) === '1',
      toggleList: () =>
        set((s) => {
          storage.setItem(LIST_KEY, s.listCollapsed ? '0' : '1')
          return { listCollapsed: !s.listCollapsed }
        }),
    }
  }

/** The picker's workspaces, the open one counting what its list shows (once the whole list is loaded). */
export function pickerCounts(
  s: Pick<Store, 'workspaces' | 'workspace' | 'memories' | 'loaded' | 'listPartial'>,
): WorkspaceSummary[] {
  const dir = s.workspace?.memoryDir
  if (!s.loaded || s.listPartial || !dir) return s.workspaces
  return s.workspaces.map((w) => (w.memoryDir === dir ? { ...w, memoryCount: s.memories.length } : w))
}

/**
 * Per list (a new array after each refresh): each memory by path, its text lowercased for the
 * filter, and the last list shown with what it was made from.
 */
const lookups = new WeakMap<
  readonly MemoryListItem[],
  {
    byPath: Map<string, MemoryListItem>
    text: string[]
    last?: { from: readonly unknown[]; shown: MemoryListItem[] }
  }
>()

function lookupOf(memories: readonly MemoryListItem[]) {
  let l = lookups.get(memories)
  if (!l) {
    l = {
      byPath: new Map(memories.map((m) => [m.relPath, m])),
      text: memories.map((m) => `${m.name}\n${m.description ?? ''}\n${m.relPath}`.toLowerCase()),
    }
    lookups.set(memories, l)
  }
  return l
}

/**
 * The list as filtered and searched: with a query, the full-text hits in their rank order (the
 * body counts too); until the first hits arrive, a plain match on name, description and path.
 * Runs on every keystroke: the per-list lookups are built once per list, not per call, and a
 * keystroke whose hits have not arrived yet gets the same array as the one before (the rows need
 * not be drawn again until they change).
 */
export function visibleMemories(
  s: Pick<Store, 'memories' | 'query' | 'typeFilter' | 'scopeFilter' | 'searchHits'>,
): MemoryListItem[] {
  const q = s.query.trim().toLowerCase()
  const kept = (m: MemoryListItem) =>
    (s.typeFilter === 'all' || m.type === s.typeFilter) &&
    (s.scopeFilter === 'all' || m.scope === s.scopeFilter)
  if (!q && s.typeFilter === 'all' && s.scopeFilter === 'all') return s.memories
  const lookup = lookupOf(s.memories)
  const from = [s.typeFilter, s.scopeFilter, q && s.searchHits ? s.searchHits : q]
  if (lookup.last?.from.every((v, i) => v === from[i])) return lookup.last.shown
  let shown: MemoryListItem[]
  if (q && s.searchHits) {
    shown = []
    for (const h of s.searchHits) {
      const m = lookup.byPath.get(h.relPath)
      if (m && kept(m)) shown.push(m)
    }
  } else shown = s.memories.filter((m, i) => kept(m) && (!q || lookup.text[i]!.includes(q)))
  lookup.last = { from, shown }
  return shown
}
