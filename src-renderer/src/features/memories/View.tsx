import { useShallow } from 'zustand/react/shallow'
import { MAX_SEARCH_HITS } from '../../../../src-shared/limits'
import { PanelLeftClose, PanelLeftOpen, Plus, Search } from 'lucide-react'
import { lazy, memo, Suspense, useCallback, useMemo, type KeyboardEvent } from 'react'
import type {
  HealthFindingView,
  MemoryListItem,
  MemoryScope,
  MemoryType,
  SearchHitView,
} from '../../../../src-shared/types'
import { Highlight } from '../../components/Highlight'
import { VirtualList } from '../../components/VirtualList'
import { useStore } from '../../app/store'
import { visibleMemories } from './slice'
import { Segmented } from '../../components/Segmented'
import { IconButton } from '../../components/IconButton'
import { useDaysAgo } from '../../lib/use-days-ago'
import { count } from '../../../../src-shared/words'

// The editor (CodeMirror, the Markdown renderer, the diff) loads when a memory is first opened.
const Editor = lazy(() => import('../editor/Editor').then((m) => ({ default: m.Editor })))

const TYPES: (MemoryType | 'all')[] = ['all', 'user', 'feedback', 'project', 'reference']
const SCOPES: (MemoryScope | 'all')[] = ['all', 'private', 'team', 'agent']

function ageClass(days: number): string {
  return days <= 1 ? 'fresh' : days <= 30 ? 'aging' : 'stale'
}

function Row({
  m,
  hit,
  queryWords,
  issues,
  active,
  age,
  onOpen,
}: {
  m: MemoryListItem
  /** Its age in words ("3 days ago"). */
  age: string
  hit?: SearchHitView
  /** What to highlight when the hit names no matched words (far down a long list of hits). */
  queryWords: string[]
  /** Health findings about this memory. */
  issues?: HealthFindingView[]
  active: boolean
  onOpen: (relPath: string) => void
}) {
  const terms = hit ? (hit.terms.length ? hit.terms : queryWords) : []
  return (
    <button
      className={`mem-row ${active ? 'active' : ''}`}
      role="option"
      aria-selected={active}
      data-relpath={m.relPath}
      onClick={() => onOpen(m.relPath)}
    >
      <span className="mem-row-top">
        <span className="mem-name">
          <Highlight text={m.name} terms={terms} />
        </span>
        {issues && issues.length > 0 && (
          <span
            className={`health-badge ${issues.some((f) => f.severity === 'error') ? 'error' : ''}`}
            title={issues.map((f) => f.message).join('\n')}
            data-testid="health-badge"
          >
            {count(issues.length, 'issue')}
          </span>
        )}
        <span className={`age ${ageClass(m.ageDays)}`}>{age}</span>
      </span>
      <span className="mem-row-bottom">
        {m.type && <span className={`type-chip ${m.type}`}>{m.type}</span>}
        {m.scope !== 'private' && <span className={`scope-chip ${m.scope}`}>{m.scope}</span>}
        <span className="mem-desc">
          {hit?.snippet ? (
            <span className="snippet">
              <Highlight text={hit.snippet} terms={terms} />
            </span>
          ) : (
            <Highlight text={m.description ?? m.relPath} terms={terms} />
          )}
        </span>
      </span>
    </button>
  )
}

/**
 * The rows, drawn again only when what they show changes: a keystroke whose search hits have not
 * arrived yet redraws the search box, not the list.
 */
const MemoryRows = memo(function MemoryRows({
  items,
  hits,
  queryWords,
  issues,
  selected,
  onOpen,
}: {
  items: MemoryListItem[]
  hits: Map<string, SearchHitView>
  queryWords: string[]
  issues: Map<string, HealthFindingView[]>
  selected: string | undefined
  onOpen: (relPath: string) => void
}) {
  const ageOf = useDaysAgo()
  return (
    <VirtualList
      label="Memories"
      items={items}
      rowHeight={64}
      keepInView={items.findIndex((m) => m.relPath === selected)}
      render={(m) => (
        <Row
          m={m}
          hit={hits.get(m.relPath)}
          queryWords={queryWords}
          issues={issues.get(m.relPath)}
          active={m.relPath === selected}
          age={ageOf(m.ageDays, m.age)}
          onOpen={onOpen}
        />
      )}
    />
  )
})

export function MemoriesView() {
  // Only what the list shows: typing in the editor must not redraw the list.
  const state = useStore(
    useShallow((s) => ({
      memories: s.memories,
      query: s.query,
      typeFilter: s.typeFilter,
      scopeFilter: s.scopeFilter,
      selected: s.selected,
      hasDraft: s.draft !== undefined,
      loaded: s.loaded,
      listPartial: s.listPartial,
      memoryDirShort: s.workspace?.memoryDirShort,
      searchHits: s.searchHits,
      searchedFor: s.searchedFor,
      listCollapsed: s.listCollapsed,
      select: s.select,
      toggleList: s.toggleList,
      newMemory: s.newMemory,
      setQuery: s.setQuery,
      setTypeFilter: s.setTypeFilter,
      setScopeFilter: s.setScopeFilter,
      clearFilters: s.clearFilters,
    })),
  )
  const { memories, query, typeFilter, scopeFilter, selected, hasDraft, loaded, searchHits } = state
  const items = useMemo(
    () => visibleMemories({ memories, query, typeFilter, scopeFilter, searchHits }),
    [memories, query, typeFilter, scopeFilter, searchHits],
  )
  const hits = useMemo(() => new Map((searchHits ?? []).map((h) => [h.relPath, h])), [searchHits])
  const queryWords = useMemo(
    () => state.searchedFor?.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [],
    [state.searchedFor],
  )
  const health = useStore((s) => s.health)
  const issues = useMemo(() => {
    const by = new Map<string, HealthFindingView[]>()
    for (const f of health?.findings ?? []) {
      if (f.severity === 'info') continue
      for (const p of f.other ? [f.path, f.other] : [f.path]) by.set(p, [...(by.get(p) ?? []), f])
    }
    return by
  }, [health])
  // While only the first screen's newest are in, the count says there are more.
  const total = `${memories.length}${state.listPartial ? '+' : ''}`
  const filtered = query.trim() !== '' || typeFilter !== 'all' || scopeFilter !== 'all'
  const select = state.select
  const openMemory = useCallback((relPath: string) => void select(relPath), [select])

  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    e.preventDefault()
    const i = items.findIndex((m) => m.relPath === selected)
    const next = items[Math.max(0, Math.min(items.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))]
    if (next) void state.select(next.relPath)
  }

  return (
    <div className={`split ${state.listCollapsed ? 'list-collapsed' : ''}`}>
      {state.listCollapsed ? (
        <div className="list-rail">
          <IconButton
            label="Show the memory list"
            title="Show the list"
            onClick={state.toggleList}
            icon={<PanelLeftOpen size={16} aria-hidden />}
          />
        </div>
      ) : (
        <section
          className="list-pane"
          onKeyDown={onKey}
          aria-label="Memory browser"
          data-searched-for={state.searchedFor}
        >
          <header className="pane-head">
            <h1>Memories</h1>
            <span className="muted count-label" data-testid="memory-count">
              {!loaded
                ? '' // not "0" while the list is on its way
                : items.length === memories.length
                  ? total
                  : `${items.length}${searchHits?.length === MAX_SEARCH_HITS ? '+' : ''} of ${total}`}
            </span>
            <span className="spacer" />
            <IconButton
              label="Hide the memory list"
              title="Hide the list"
              onClick={state.toggleList}
              icon={<PanelLeftClose size={16} aria-hidden />}
            />
            <button
              className="primary"
              onClick={() => state.newMemory()}
              title="New memory (Ctrl+N)"
              aria-label="New memory"
            >
              <Plus size={14} aria-hidden /> New
            </button>
          </header>
          <div className="filters">
            <label className="search-box">
              <Search size={14} aria-hidden />
              <input
                type="search"
                placeholder="Search names, text and paths"
                aria-label="Search memories"
                value={query}
                onChange={(e) => state.setQuery(e.target.value)}
              />
            </label>
            <div className="filter-row">
              <select
                aria-label="Filter by type"
                value={typeFilter}
                onChange={(e) => state.setTypeFilter(e.target.value as MemoryType | 'all')}
              >
                {TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t === 'all' ? 'All types' : t}
                  </option>
                ))}
              </select>
              <Segmented
                label="Filter by scope"
                options={SCOPES}
                value={scopeFilter}
                onChange={state.setScopeFilter}
              />
            </div>
          </div>
          {loaded && memories.length === 0 ? (
            <div className="empty-state">
              <h2>No memories yet</h2>
              <p>
                Claude Code saves memories into <code>{state.memoryDirShort}</code> as it learns about you and
                this project. You can also write one yourself.
              </p>
              <button className="primary" onClick={() => state.newMemory()}>
                Write the first memory
              </button>
            </div>
          ) : items.length === 0 ? (
            <div className="empty-state small">
              <p>No memory matches {query.trim() ? <>“{query.trim()}”</> : 'these filters'}.</p>
              {filtered && <button onClick={state.clearFilters}>Clear filters</button>}
            </div>
          ) : (
            <MemoryRows
              items={items}
              hits={hits}
              queryWords={queryWords}
              issues={issues}
              selected={selected}
              onOpen={openMemory}
            />
          )}
        </section>
      )}
      <section className="editor-pane" aria-label="Editor">
        {hasDraft ? (
          <Suspense fallback={<div className="loading">Loading the editor…</div>}>
            <Editor />
          </Suspense>
        ) : (
          <div className="empty-state">
            <h2>Select a memory</h2>
            <p className="muted">
              Pick one from the list, or press Ctrl+N to write a new one. Use ↑ ↓ to move through the list.
            </p>
          </div>
        )}
      </section>
    </div>
  )
}
