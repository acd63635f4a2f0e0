import { useEffect, useState } from 'react'
import { count } from '../../../src-shared/words'
import type { HistoryDiff, HistoryItem } from '../../../src-shared/types'
import { Diff } from '../components/Diff'
import { errorMessage, getClient } from '../transport/client'
import { useStore } from '../store'
import { fullDate, relativeDate } from '../lib/format'

function changeLabel(e: HistoryItem): string {
  // An undo puts a run's files back as they were before it: a file it had created goes away.
  if (e.runId?.startsWith('undo-')) return 'undone'
  if (e.change === 'restore' || e.restoredFrom !== undefined)
    return e.restoredFrom !== undefined ? `restored from v${e.restoredFrom}` : 'restored'
  return CHANGE_LABEL[e.change]
}

function authorLabel(e: HistoryItem): string {
  return e.author === 'mcp' && e.client ? `mcp · ${e.client}` : e.author
}

const CHANGE_LABEL = {
  baseline: 'first seen',
  create: 'created',
  modify: 'changed',
  delete: 'deleted',
  restore: 'restored',
  verify: 'marked still true',
} as const

export function HistoryView() {
  const { historyPath, showHistory, memories, select, setView } = useStore()
  const [items, setItems] = useState<HistoryItem[]>([])
  const [diff, setDiff] = useState<HistoryDiff>()
  const [message, setMessage] = useState<string>()
  const [error, setError] = useState<string>()

  const load = async () => {
    try {
      setItems(await getClient()['history/list']({ path: historyPath }))
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  // A new scope clears the open version; list refreshes (files changing) keep it open.
  useEffect(() => setDiff(undefined), [historyPath])
  useEffect(() => {
    void load()
  }, [historyPath, memories])

  const open = async (id: number) => {
    setMessage(undefined)
    setDiff(await getClient()['history/diff']({ id }))
  }
  const act = async (fn: () => Promise<string>) => {
    setError(undefined)
    try {
      setMessage(await fn())
      await load()
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  const restore = (e: HistoryItem) =>
    act(async () => {
      await getClient()['history/restore']({ path: e.path, id: e.id })
      return `${e.path} restored to version ${e.id}`
    })
  const undo = (runId: string) =>
    act(
      async () =>
        `Undone: ${count((await getClient()['history/undoRun']({ runId })).length, 'file')} back to before ${runId}`,
    )

  return (
    <div className="split history">
      <section className="list-pane" aria-label="Timeline">
        <header className="pane-head">
          <h1>{historyPath ? 'Memory history' : 'History'}</h1>
          {historyPath && (
            <button className="ghost" onClick={() => showHistory(undefined)}>
              Whole workspace
            </button>
          )}
        </header>
        {historyPath && <p className="muted mono pad">{historyPath}</p>}
        {error && <p className="error-text pad">{error}</p>}
        {items.length === 0 ? (
          <div className="empty-state small">
            <p>
              No changes recorded yet. Every edit — yours, Claude Code&rsquo;s, extraction, dream and team
              pulls — lands here.
            </p>
          </div>
        ) : (
          <ol className="timeline" aria-label="History entries">
            {items.map((e) => (
              <li key={e.id} className={diff?.entry.id === e.id ? 'active' : ''}>
                <button className="timeline-item" onClick={() => void open(e.id)} data-history-id={e.id}>
                  <span className={`author ${e.author}`}>{authorLabel(e)}</span>
                  <span className="timeline-what">
                    <span className="timeline-name">{e.name ?? e.path}</span>
                    {e.name && <span className="timeline-path muted mono">{e.path}</span>}
                    {e.indexEntry !== undefined && (
                      <span className="muted small" title="Its MEMORY.md line changed with it">
                        + MEMORY.md line
                      </span>
                    )}
                  </span>
                  <span className={`change ${e.restoredFrom !== undefined ? 'restore' : e.change}`}>
                    {changeLabel(e)}
                  </span>
                  <time className="muted" dateTime={new Date(e.at).toISOString()} title={fullDate(e.at)}>
                    {relativeDate(e.at)}
                  </time>
                </button>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section className="editor-pane" aria-label="Version">
        {diff ? (
          <div className="page">
            <header className="pane-head">
              <h1>
                Version {diff.entry.id} · {diff.entry.path}
              </h1>
            </header>
            <p className="muted">
              {changeLabel(diff.entry)} by <strong>{authorLabel(diff.entry)}</strong>,{' '}
              <time title={fullDate(diff.entry.at)}>{relativeDate(diff.entry.at)}</time>
              {diff.entry.runId && <> · run {diff.entry.runId}</>}
            </p>
            <div className="actions">
              <button className="primary" onClick={() => void restore(diff.entry)}>
                {diff.entry.change === 'delete' ? 'Restore the deleted memory' : 'Restore this version'}
              </button>
              {diff.entry.runId && (
                <button onClick={() => void undo(diff.entry.runId!)}>Undo the whole run</button>
              )}
              {memories.some((m) => m.relPath === diff.entry.path) && (
                <button
                  className="ghost"
                  onClick={() => {
                    void select(diff.entry.path)
                    setView('memories')
                  }}
                >
                  Open in editor
                </button>
              )}
            </div>
            {message && (
              <p className="ok-text" role="status">
                {message}
              </p>
            )}
            <Diff lines={diff.lines} label="Changes in this version" />
          </div>
        ) : (
          <div className="empty-state">
            <h2>Pick a change</h2>
            <p className="muted">
              See what changed, restore any version, bring back a deleted memory, or undo a whole extraction
              or dream.
            </p>
          </div>
        )}
      </section>
    </div>
  )
}
