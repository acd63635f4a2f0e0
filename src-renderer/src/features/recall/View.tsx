import { useState } from 'react'
import { useRpc } from '../../app/use-rpc'
import { useStore } from '../../app/store'
import { TextStats } from '../../components/TextStats'
import { SubmitForm } from '../../components/SubmitForm'
import { count } from '../../../../src-shared/words'
import { daysAgo } from '../../lib/format'

export function RecallView() {
  const open = useStore((s) => s.openFile)
  const [query, setQuery] = useState('')
  const [tools, setTools] = useState('')
  // What the user last asked for: nothing is recalled until they do.
  const [asked, setAsked] = useState<{ query: string; recentTools: string[] } | null>(null)
  const { data, error, loading: busy, reload } = useRpc('recall/preview', asked)

  const run = () => {
    const recentTools = tools
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
    const next = { query, recentTools }
    if (JSON.stringify(next) === JSON.stringify(asked)) reload()
    else setAsked(next)
  }

  return (
    <div className="page">
      <header className="pane-head">
        <h1>Recall preview</h1>
      </header>
      <p className="muted">
        What the agent would be shown for a prompt: up to five memories, with freshness notes, exactly as
        injected.
      </p>
      <SubmitForm className="recall-form" onSubmit={run}>
        <input
          aria-label="Query"
          placeholder="e.g. why are the integration tests failing?"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <input
          aria-label="Recently used tools"
          placeholder="recent tools (optional): Bash, mcp__db__query"
          value={tools}
          onChange={(e) => setTools(e.target.value)}
        />
        <button className="primary" disabled={busy || !query.trim()}>
          {busy ? 'Recalling…' : 'Preview recall'}
        </button>
      </SubmitForm>
      {error && <p className="error-text">{error}</p>}
      {data && (
        <section aria-label="Recall result" className="recall-result">
          <p className={`badge ${data.mode}`} data-testid="recall-mode">
            {data.mode === 'offline'
              ? `Offline ranking — ${data.note?.replace(/^offline ranking \(([^)]*)\): /, '$1: ')}`
              : 'Selected by the model'}
          </p>
          {data.error && <p className="error-text">Recall failed: {data.error}</p>}
          <p className="muted">
            {data.selected.length} of {count(data.candidates, 'memory', 'memories')} selected
          </p>
          {data.injections.length > 0 && (
            <TextStats text={data.injections.join('\n\n')} label="injected text" />
          )}
          {data.selected.length === 0 ? (
            <div className="empty-state small">
              <p>Nothing would be recalled for this query.</p>
            </div>
          ) : (
            <ol className="recall-list">
              {data.selected.map((s, i) => (
                <li key={s.path}>
                  <button className="link-button" onClick={() => open(s.relPath)}>
                    {s.relPath}
                  </button>
                  <span className="muted"> · saved {daysAgo(s.ageDays)}</span>
                  {s.freshness && <p className="warn-text small">{s.freshness}</p>}
                  <pre className="injection">{data.injections[i]}</pre>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </div>
  )
}
