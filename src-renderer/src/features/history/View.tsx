import { useEffect, useState } from 'react'
import type { HistoryItem } from '../../../../src-shared/types'
import { count } from '../../../../src-shared/words'
import { Diff } from '../../components/Diff'
import { useStore } from '../../app/store'
import { useRpc } from '../../app/use-rpc'
import { errorMessage, fullDate, relativeDate, undoMessage } from '../../lib/format'

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

const HISTORY_PAGE = 1000

const CHANGE_LABEL = {
  baseline: 'first seen',
  create: 'created',
  modify: 'changed',
  delete: 'deleted',
  restore: 'restored',
  verify: 'marked still true',
} as const

export function HistoryView() {
  const historyPath = useStore((s) => s.historyPath)
  const showHistory = useStore((s) => s.showHistory)
  const memories = useStore((s) => s.memories)
  const openFile = useStore((s) => s.openFile)
  const restoreVersion = useStore((s) => s.restoreVersion)
  const undoRun = useStore((s) => s.undoRun)
  // The newest changes, a page at a time: "Show older" asks for the next page with them.
  const [limit, setLimit] = useState(HISTORY_PAGE)
  const list = useRpc('history/list', { path: historyPath, limit })
  const items = list.data?.items ?? []
  const [openId, setOpenId] = useState<number>()
  const { data: diff } = useRpc('history/diff', openId === undefined ? null : { id: openId })
  const [message, setMessage] = useState<string>()
  const [actError, setActError] = useState<string>()
  const error = actError ?? list.error

  // A new scope clears the open version; list refreshes (files changing) keep it open.
  useEffect(() => {
    setOpenId(undefined)
    setLimit(HISTORY_PAGE)
  }, [historyPath])

  const open = (id: number) => {
    setMessage(undefined)
    setOpenId(id)
  }
  const act = async (fn: () => Promise<string>) => {
    setActError(undefined)
    try {
      setMessage(await fn())
      list.reload()
    } catch (e) {
      setActError(errorMessage(e))
    }
  }
  const restore = (e: HistoryItem) =>
    act(async () => {
      await restoreVersion(e.path, e.id)
      return `${e.path} restored to version ${e.id}`
    })
  const undo = (runId: string) => act(async () => undoMessage(await undoRun(runId), runId))

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
                <button className="timeline-item" onClick={() => open(e.id)} data-history-id={e.id}>
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
        {list.data?.more && (
          <div className="pad">
            <p className="muted small">Showing the newest {count(items.length, 'change')}.</p>
            <button onClick={() => setLimit(limit + HISTORY_PAGE)}>Show older</button>
          </div>
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
                <button className="ghost" onClick={() => openFile(diff.entry.path)}>
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
