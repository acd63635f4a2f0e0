import { Moon } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { ActivityItem, ActivityKind } from '../../../../src-shared/types'
import { RestoreMine } from '../history/RestoreMine'
import { useRpc } from '../../app/use-rpc'
import { clockTime, errorMessage, fullDate, relativeDate, undoMessage } from '../../lib/format'
import { useStore } from '../../app/store'

const KIND_LABEL: Record<ActivityKind, string> = {
  extraction: 'Extraction',
  dream: 'Dream',
  sync: 'Team sync',
  recall: 'Recall',
  agent: 'Agent',
  settings: 'Settings',
}

/** "Dream now": the consolidation gates as they stand, and a button that runs it (forcing time and sessions). */
function DreamNow() {
  const runDream = useStore((s) => s.runDream)
  const { data: status, error, reload } = useRpc('dream/status')
  const [busy, setBusy] = useState(false)
  const [ran, setRan] = useState<string>()
  const result = ran ?? error
  const run = async () => {
    setBusy(true)
    setRan(undefined)
    try {
      setRan((await runDream()).message)
    } catch (e) {
      setRan(errorMessage(e))
    } finally {
      setBusy(false)
      reload()
    }
  }
  const blocking = status?.gates.filter((g) => !g.ok) ?? []
  const hard = blocking.filter(
    (g) => g.gate === 'disabled' || g.gate === 'needs_model' || g.gate === 'locked',
  )
  return (
    <section className="dream-now" aria-label="Consolidation">
      <div className="dream-head">
        <Moon size={16} aria-hidden />
        <strong>Consolidation (dream)</strong>
        <span className="muted">
          {status?.lastConsolidatedAt ? `last run ${relativeDate(status.lastConsolidatedAt)}` : 'never run'}
        </span>
        <span className="spacer" />
        <button onClick={() => void run()} disabled={busy || !status || hard.length > 0}>
          {busy ? 'Dreaming…' : 'Dream now'}
        </button>
      </div>
      {status && (
        <ul className="gates" aria-label="Dream gates">
          {status.gates.map((g) => (
            <li key={g.gate} className={g.ok ? 'ok' : 'blocked'}>
              {g.ok ? '✓' : '·'} {g.detail}
            </li>
          ))}
        </ul>
      )}
      {hard.length === 0 && blocking.length > 0 && (
        <p className="muted small">In the background it waits for these; “Dream now” runs anyway.</p>
      )}
      {result && (
        <p className="small" role="status">
          {result}
        </p>
      )}
    </section>
  )
}

function FeedItem({ a }: { a: ActivityItem }) {
  const setView = useStore((s) => s.setView)
  const open = useStore((s) => s.openFile)
  const showHistory = useStore((s) => s.showHistory)
  const undoRun = useStore((s) => s.undoRun)
  const [undone, setUndone] = useState<string>()
  const undo = async (runId: string) => {
    try {
      setUndone(undoMessage(await undoRun(runId), 'this run'))
    } catch (e) {
      setUndone(errorMessage(e))
    }
  }
  const openFile = (f: string) => {
    // A file an undo (or a later change) removed opens its history instead.
    const gone = !f.endsWith('MEMORY.md') && !useStore.getState().memories.some((m) => m.relPath === f)
    if (gone) showHistory(f)
    else open(f)
  }
  const changedSomething = a.files.length > 0
  return (
    <li className={`feed-item ${a.level}`}>
      <div className="feed-head">
        <span className={`kind ${a.kind}`}>{KIND_LABEL[a.kind]}</span>
        <strong>{a.title}</strong>
        {a.count && a.count > 1 && (
          <span className="badge" title="The same entry, repeated">
            ×{a.count}
          </span>
        )}
        {a.source && <span className="muted source">{a.source}</span>}
        <time className="muted" dateTime={new Date(a.at).toISOString()} title={fullDate(a.at)}>
          {Date.now() - a.at < 86_400_000 ? clockTime(a.at) : relativeDate(a.at)}
        </time>
      </div>
      {a.detail && <p className="feed-detail">{a.detail}</p>}
      {a.restore && a.restore.length > 0 && (
        <div className="actions feed-actions">
          {a.restore.map((r) => (
            <RestoreMine key={r.path} path={r.path} version={r.version} />
          ))}
        </div>
      )}
      {(a.proposalId || (a.runId && changedSomething)) && (
        <div className="actions feed-actions">
          {a.proposalId && (
            <button className="primary" onClick={() => setView('inbox')}>
              Review
            </button>
          )}
          {a.runId &&
            changedSomething &&
            (undone ? (
              <span className="muted">{undone}</span>
            ) : (
              <>
                <button onClick={() => void undo(a.runId!)}>
                  Undo this {a.kind === 'dream' ? 'consolidation' : 'run'}
                </button>
                <button className="ghost" onClick={() => showHistory(undefined)}>
                  Show in history
                </button>
              </>
            ))}
        </div>
      )}
      {a.files.length > 0 && (
        <ul className="feed-files">
          {a.files.map((f) => (
            <li key={f}>
              <button className="link-button mono" onClick={() => openFile(f)}>
                {f}
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

export function ActivityView() {
  const activity = useStore((s) => s.activity)
  const markActivitySeen = useStore((s) => s.markActivitySeen)
  // Opening the feed is seeing it: the error count in the sidebar clears.
  useEffect(() => markActivitySeen(), [markActivitySeen])
  const items = [...activity].reverse()
  return (
    <div className="page">
      <header className="pane-head">
        <h1>Activity</h1>
      </header>
      <p className="muted">
        Background work on this workspace: memories saved from finished turns, consolidations, team sync, hook
        recalls and agent writes — kept across restarts.
      </p>
      <DreamNow />
      {items.length === 0 ? (
        <div className="empty-state">
          <h2>Nothing has happened yet</h2>
          <p className="muted">
            When a Claude Code session in this project finishes a turn, the memories it produced appear here.
          </p>
        </div>
      ) : (
        <ol className="feed" aria-label="Activity feed">
          {items.map((a) => (
            <FeedItem key={a.id} a={a} />
          ))}
        </ol>
      )}
    </div>
  )
}
