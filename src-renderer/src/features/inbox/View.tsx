import { useState } from 'react'
import { count } from '../../../../src-shared/words'
import type { ProposalView } from '../../../../src-shared/types'
import { Diff } from '../../components/Diff'
import { useStore } from '../../app/store'
import { useRpc } from '../../app/use-rpc'
import { errorMessage } from '../../lib/format'

function ProposalCard({ p, onDone }: { p: ProposalView; onDone: () => void }) {
  const approve = useStore((s) => s.approve)
  const reject = useStore((s) => s.reject)
  const [editing, setEditing] = useState<Record<string, string | null>>({})
  const [error, setError] = useState<string>()
  const act = async (fn: () => Promise<void>) => {
    setError(undefined)
    try {
      await fn()
      onDone()
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  return (
    <article className="proposal" aria-label={`Proposal ${p.id}`}>
      <header className="feed-head">
        <span className={`kind ${p.author}`}>{p.author === 'dream' ? 'Dream' : 'Extraction'}</span>
        <strong>{count(p.files.length, 'file')}</strong>
        <time className="muted">{new Date(p.createdAt).toLocaleString()}</time>
      </header>
      <p className="feed-detail">{p.reason}</p>
      {p.files.map((f) => (
        <section key={f.path} className="proposal-file">
          <h3 className="mono">
            {f.path}{' '}
            <span className="muted">
              {f.after === null ? '— delete' : f.before === null ? '— new' : '— change'}
            </span>
          </h3>
          {f.secrets && !(f.path in editing) && (
            <p className="warning-box" role="alert" data-testid="proposal-secret">
              Holds a {f.secrets.map((x) => `${x.description} on line ${x.line}`).join(', ')}: edit it out
              before approving (write where the secret lives instead).
            </p>
          )}
          {f.path in editing ? (
            <textarea
              aria-label={`Edit ${f.path}`}
              value={editing[f.path] ?? ''}
              onChange={(e) => setEditing((x) => ({ ...x, [f.path]: e.target.value }))}
            />
          ) : (
            <Diff lines={f.lines} label={`Proposed change to ${f.path}`} />
          )}
          {f.after !== null && !(f.path in editing) && (
            <button className="ghost" onClick={() => setEditing((x) => ({ ...x, [f.path]: f.after }))}>
              Edit before approving
            </button>
          )}
        </section>
      ))}
      {error && <p className="error-text">{error}</p>}
      <div className="actions">
        <button className="primary" onClick={() => void act(() => approve(p.id, editing))}>
          Approve
        </button>
        <button onClick={() => void act(() => reject(p.id))}>Reject</button>
      </div>
    </article>
  )
}

export function InboxView() {
  const approve = useStore((s) => s.approve)
  const reject = useStore((s) => s.reject)
  const list = useRpc('review/list')
  const items = list.data ?? []
  const [actError, setActError] = useState<string>()
  const error = actError ?? list.error
  const all = async (kind: 'approve' | 'reject') => {
    setActError(undefined)
    try {
      for (const p of items) await (kind === 'approve' ? approve(p.id) : reject(p.id))
    } catch (e) {
      setActError(errorMessage(e))
    }
    list.reload()
  }
  return (
    <div className="page">
      <header className="pane-head">
        <h1>Review inbox</h1>
        <span className="spacer" />
        {items.length > 1 && (
          <>
            <button onClick={() => void all('reject')}>Reject all</button>
            <button className="primary" onClick={() => void all('approve')}>
              Approve all
            </button>
          </>
        )}
      </header>
      <p className="muted">
        In review mode, extraction and dream propose changes here. Nothing is written to the memory dir until
        you approve.
      </p>
      {error && <p className="error-text">{error}</p>}
      {items.length === 0 ? (
        <div className="empty-state">
          <h2>Inbox is empty</h2>
          <p className="muted">
            Turn on review mode in Settings to approve every automatic change before it is written.
          </p>
        </div>
      ) : (
        items.map((p) => <ProposalCard key={p.id} p={p} onDone={list.reload} />)
      )}
    </div>
  )
}
