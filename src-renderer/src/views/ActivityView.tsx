import type { ActivityKind } from '../../../src-shared/types'
import { useState } from 'react'
import { errorMessage, getClient } from '../transport/client'
import { RestoreMine } from '../components/RestoreMine'
import { useStore } from '../store'

const KIND_LABEL: Record<ActivityKind, string> = {
  extraction: 'Extraction',
  dream: 'Dream',
  sync: 'Team sync',
  recall: 'Recall',
  agent: 'Agent',
}

export function ActivityView() {
  const { activity, select, setView, showHistory } = useStore()
  const [undone, setUndone] = useState<Record<string, string>>({})
  const undo = async (runId: string) => {
    try {
      const paths = await getClient()['history/undoRun']({ runId })
      setUndone((u) => ({ ...u, [runId]: `Undone: ${paths.length} file(s) restored` }))
    } catch (e) {
      setUndone((u) => ({ ...u, [runId]: errorMessage(e) }))
    }
  }
  const items = [...activity].reverse()
  return (
    <div className="page">
      <header className="pane-head">
        <h1>Activity</h1>
      </header>
      <p className="muted">
        Background work on this workspace: memories saved from finished turns, consolidations, and team sync.
      </p>
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
            <li key={a.id} className={`feed-item ${a.level}`}>
              <div className="feed-head">
                <span className={`kind ${a.kind}`}>{KIND_LABEL[a.kind]}</span>
                <strong>{a.title}</strong>
                {a.source && <span className="muted source">{a.source}</span>}
                <time className="muted">{new Date(a.at).toLocaleTimeString()}</time>
              </div>
              {a.detail && <p className="feed-detail">{a.detail}</p>}
              {a.restore && a.restore.length > 0 && (
                <div className="actions feed-actions">
                  {a.restore.map((r) => (
                    <RestoreMine key={r.path} path={r.path} version={r.version} />
                  ))}
                </div>
              )}
              {(a.runId || a.proposalId) && (
                <div className="actions feed-actions">
                  {a.proposalId && (
                    <button className="primary" onClick={() => setView('inbox')}>
                      Review
                    </button>
                  )}
                  {a.runId &&
                    (undone[a.runId] ? (
                      <span className="muted">{undone[a.runId]}</span>
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
                      <button
                        className="link-button mono"
                        onClick={() => {
                          if (f.endsWith('MEMORY.md')) return setView('index')
                          void select(f)
                          setView('memories')
                        }}
                      >
                        {f}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
