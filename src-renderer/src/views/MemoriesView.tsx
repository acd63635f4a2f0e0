import { useMemo, useRef, type KeyboardEvent } from 'react'
import type { MemoryListItem, MemoryScope, MemoryType } from '../../../src-shared/types'
import { VirtualList } from '../components/VirtualList'
import { useStore, visibleMemories } from '../store'
import { Editor } from './Editor'

const TYPES: (MemoryType | 'all')[] = ['all', 'user', 'feedback', 'project', 'reference']
const SCOPES: (MemoryScope | 'all')[] = ['all', 'private', 'team', 'agent']

function ageClass(days: number): string {
  return days <= 1 ? 'fresh' : days <= 30 ? 'aging' : 'stale'
}

function Row({ m, active, onOpen }: { m: MemoryListItem; active: boolean; onOpen: () => void }) {
  return (
    <button
      className={`mem-row ${active ? 'active' : ''}`}
      role="option"
      aria-selected={active}
      data-relpath={m.relPath}
      onClick={onOpen}
    >
      <span className="mem-row-top">
        <span className="mem-name">{m.name}</span>
        <span className={`age ${ageClass(m.ageDays)}`}>{m.age}</span>
      </span>
      <span className="mem-row-bottom">
        {m.type && <span className={`type-chip ${m.type}`}>{m.type}</span>}
        {m.scope !== 'private' && <span className={`scope-chip ${m.scope}`}>{m.scope}</span>}
        <span className="mem-desc">{m.description ?? m.relPath}</span>
      </span>
    </button>
  )
}

export function MemoriesView() {
  const state = useStore()
  const { memories, query, typeFilter, scopeFilter, selected, draft, loaded, workspace } = state
  const items = useMemo(
    () => visibleMemories({ memories, query, typeFilter, scopeFilter }),
    [memories, query, typeFilter, scopeFilter],
  )
  const search = useRef<HTMLInputElement>(null)

  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    e.preventDefault()
    const i = items.findIndex((m) => m.relPath === selected)
    const next = items[Math.max(0, Math.min(items.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))]
    if (next) void state.select(next.relPath)
  }

  return (
    <div className="split">
      <section className="list-pane" onKeyDown={onKey} aria-label="Memory browser">
        <header className="pane-head">
          <h1>Memories</h1>
          <span className="muted count-label" data-testid="memory-count">
            {items.length === memories.length
              ? `${memories.length}`
              : `${items.length} of ${memories.length}`}
          </span>
          <button className="primary" onClick={() => state.newMemory()} title="New memory (Ctrl+N)">
            New memory
          </button>
        </header>
        <div className="filters">
          <input
            ref={search}
            type="search"
            placeholder="Search name, description, path"
            aria-label="Search memories"
            value={query}
            onChange={(e) => state.setQuery(e.target.value)}
          />
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
          <div className="segmented" role="group" aria-label="Filter by scope">
            {SCOPES.map((s) => (
              <button
                key={s}
                className={scopeFilter === s ? 'on' : ''}
                aria-pressed={scopeFilter === s}
                onClick={() => state.setScopeFilter(s)}
              >
                {s}
              </button>
            ))}
          </div>
        </div>
        {loaded && memories.length === 0 ? (
          <div className="empty-state">
            <h2>No memories yet</h2>
            <p>
              Claude Code saves memories into <code>{workspace?.memoryDir}</code> as it learns about you and
              this project. You can also write one yourself.
            </p>
            <button className="primary" onClick={() => state.newMemory()}>
              Write the first memory
            </button>
          </div>
        ) : items.length === 0 ? (
          <div className="empty-state small">
            <p>No memory matches these filters.</p>
          </div>
        ) : (
          <VirtualList
            label="Memories"
            items={items}
            rowHeight={64}
            render={(m) => (
              <Row m={m} active={m.relPath === selected} onOpen={() => void state.select(m.relPath)} />
            )}
          />
        )}
      </section>
      <section className="editor-pane" aria-label="Editor">
        {draft ? (
          <Editor />
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
