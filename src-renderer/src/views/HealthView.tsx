import { useEffect, useMemo, useState } from 'react'
import type { ContradictionStatus, HealthFindingView, HealthFixKind } from '../../../src-shared/types'
import type { BatchFix } from '../../../src-shared/contract'
import { count } from '../../../src-shared/words'
import { relativeDate } from '../lib/format'
import { errorMessage, getClient } from '../transport/client'
import { useStore } from '../store'

const KIND_LABEL: Record<string, string> = {
  'dead-pointer': 'Pointer to a missing file',
  unindexed: 'Not in MEMORY.md',
  'index-cut': 'Index lines cut',
  'long-index-line': 'Long index lines',
  'path-gone': 'Code it names is gone',
  'path-changed': 'Code it names changed',
  'command-gone': 'Command gone',
  'symbol-gone': 'Symbol not found',
  'duplicate-name': 'Same name',
  'near-duplicate': 'Near-duplicate',
  contradiction: 'Contradiction',
  'invalid-frontmatter': 'Invalid frontmatter',
  'weak-frontmatter': 'Weak frontmatter',
  oversized: 'Oversized',
  secret: 'Secret',
}

function fixLabel(fix: HealthFixKind, f: HealthFindingView): string {
  switch (fix) {
    case 'remove-pointer':
      return 'Remove pointer'
    case 'add-pointer':
      return 'Add to MEMORY.md'
    case 'compact-index':
      return 'Move detail out of the index'
    case 'verify':
      return 'Mark as still true'
    case 'update-path':
      return `Update to ${f.movedTo}`
    case 'merge':
      return 'Propose merge'
    case 'open':
      return 'Open'
  }
}

/** The model's contradiction check: what it did, what it cost, and a button to run it (paid usage). */
function ContradictionLine(props: { status: ContradictionStatus; busy: boolean; onCheck: () => void }) {
  const { lastRunAt, calls, unchecked, failed } = props.status
  return (
    <p className="muted" data-testid="contradiction-check">
      Contradictions: {lastRunAt === null ? 'not checked yet' : `last checked ${relativeDate(lastRunAt)}`} ·{' '}
      {count(calls, 'model call')} so far
      {failed ? ` · the last check failed: ${failed}` : ''}.{' '}
      {unchecked ? (
        <button type="button" className="ghost" disabled={props.busy} onClick={props.onCheck}>
          {props.busy ? 'Checking…' : `Check ${count(unchecked, 'same-topic pair')} (one model call)`}
        </button>
      ) : (
        'Every same-topic pair is checked.'
      )}
    </p>
  )
}

const isMemory = (path: string) => !path.endsWith('MEMORY.md')

/** Findings of each kind together, in the order the report ranks them (errors first). */
function groups(findings: HealthFindingView[]): [string, HealthFindingView[]][] {
  const by = new Map<string, HealthFindingView[]>()
  for (const f of findings) {
    const group = by.get(f.kind)
    if (group) group.push(f)
    else by.set(f.kind, [f])
  }
  return [...by.entries()]
}

const PER_GROUP = 50

/** "Fix all" in this view: the batch fixes that change files ("Mark as still true" stays one by one). */
type FileBatchFix = Exclude<BatchFix, 'verify'>
const BATCH_LABEL: Record<FileBatchFix, string> = {
  'remove-pointer': 'remove the pointers',
  'add-pointer': 'add them to MEMORY.md',
  'update-path': 'update the paths',
}

/** The fix "Fix all" applies to a group: one every finding in it takes. */
function batchFixOf(items: HealthFindingView[]): FileBatchFix | undefined {
  if (items.length < 2) return undefined
  return (['remove-pointer', 'add-pointer', 'update-path'] as const).find((fix) =>
    items.every((f) => f.fixes.includes(fix)),
  )
}

function Finding(props: {
  f: HealthFindingView
  busy: boolean
  onOpen: (path: string) => void
  onFix: (f: HealthFindingView, fix: HealthFixKind) => Promise<void>
}) {
  const { f } = props
  return (
    <li className={`feed-item ${f.severity}`} data-kind={f.kind}>
      <div className="feed-head">
        <button className="link-button mono" onClick={() => props.onOpen(f.path)}>
          {f.path}
        </button>
        {f.other && (
          <>
            <span className="muted">and</span>
            <button className="link-button mono" onClick={() => props.onOpen(f.other!)}>
              {f.other}
            </button>
          </>
        )}
        <span className="feed-detail">{f.message}</span>
      </div>
      {f.evidence.length > 0 && (
        <details>
          <summary>Evidence</summary>
          <ul className="evidence mono">
            {f.evidence.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </details>
      )}
      <div className="actions feed-actions">
        {f.fixes
          .filter((x) => x !== 'open' || isMemory(f.path))
          .map((fix) => (
            <button key={fix} type="button" disabled={props.busy} onClick={() => void props.onFix(f, fix)}>
              {fixLabel(fix, f)}
            </button>
          ))}
      </div>
    </li>
  )
}

export function HealthView() {
  const { health, refreshHealth, select, setView, refreshReviews } = useStore()
  const [kind, setKind] = useState<string>()
  const [busy, setBusy] = useState<string>()
  const [status, setStatus] = useState<{ text: string; error?: boolean; undo?: string }>()
  const [expanded, setExpanded] = useState<Set<string>>(new Set())

  useEffect(() => {
    void refreshHealth()
  }, [refreshHealth])

  const shown = useMemo(
    () => (health?.findings ?? []).filter((f) => !kind || f.kind === kind),
    [health, kind],
  )
  const grouped = useMemo(() => groups(shown), [shown])

  const open = (path: string) => {
    if (path.endsWith('MEMORY.md')) return setView('index')
    void select(path)
    setView('memories')
  }

  const checkContradictions = async () => {
    setBusy('contradictions')
    setStatus(undefined)
    try {
      useStore.setState({ health: await getClient()['health/checkContradictions']() })
    } catch (e) {
      setStatus({ text: errorMessage(e), error: true })
    } finally {
      setBusy(undefined)
    }
  }

  const applyAll = async (k: string, fix: FileBatchFix) => {
    setBusy(`all:${k}`)
    setStatus(undefined)
    try {
      const r = await getClient()['health/fixAll']({ kind: k, fix })
      const failed = r.failed.length ? ` (${r.failed.map((x) => `${x.path}: ${x.reason}`).join('; ')})` : ''
      setStatus({ text: `${r.message}${failed}.`, undo: r.runId, error: r.failed.length > 0 })
      await refreshHealth()
    } catch (e) {
      setStatus({ text: errorMessage(e), error: true })
    } finally {
      setBusy(undefined)
    }
  }

  const undoBatch = async (runId: string) => {
    try {
      const paths = await getClient()['history/undoRun']({ runId })
      setStatus({ text: `Undone: ${count(paths.length, 'file')} back to before the fix.` })
      await refreshHealth()
    } catch (e) {
      setStatus({ text: errorMessage(e), error: true })
    }
  }

  const apply = async (f: HealthFindingView, fix: HealthFixKind) => {
    if (fix === 'open') return open(f.path)
    setBusy(f.id + fix)
    setStatus(undefined)
    try {
      const r = await getClient()['health/fix']({ id: f.id, fix })
      setStatus({ text: r.proposalId ? `${r.message}.` : `${r.message} (in history).` })
      if (r.proposalId) await refreshReviews()
      await refreshHealth()
    } catch (e) {
      setStatus({ text: errorMessage(e), error: true })
    } finally {
      setBusy(undefined)
    }
  }

  if (!health) return <div className="page muted">Checking memory health…</div>
  const notes = health.findings.length - health.errors - health.warnings
  return (
    <div className="page">
      <header className="pane-head">
        <h1>Health</h1>
        <span className="badge error" data-testid="health-errors">
          {count(health.errors, 'error')}
        </span>
        <span className="badge warning">{count(health.warnings, 'warning')}</span>
        <span className="badge">{count(notes, 'note')}</span>
        <button type="button" onClick={() => void refreshHealth()}>
          Check again
        </button>
      </header>
      <p className="muted">
        {count(health.memories, 'memory', 'memories')} checked against MEMORY.md, each other and{' '}
        {health.git.available
          ? `the project's git history (${health.git.commits.toLocaleString()} commits)`
          : 'the code (no git history here, so code links are not checked)'}
        .{health.contradictions === 'off' && ' Contradictions are checked when a model is configured.'}
      </p>
      {health.contradictions !== 'off' && (
        <ContradictionLine
          status={health.contradictions}
          busy={busy === 'contradictions'}
          onCheck={() => void checkContradictions()}
        />
      )}
      {status && (
        <p className={status.error ? 'error-box' : 'success-box'} role="status">
          {status.text}{' '}
          {status.undo && (
            <button type="button" onClick={() => void undoBatch(status.undo!)}>
              Undo this fix
            </button>
          )}
        </p>
      )}
      <div className="chips" role="group" aria-label="Finding kinds">
        <button className={!kind ? 'chip active' : 'chip'} onClick={() => setKind(undefined)}>
          All · {health.findings.length}
        </button>
        {Object.entries(health.counts).map(([k, n]) => (
          <button key={k} className={kind === k ? 'chip active' : 'chip'} onClick={() => setKind(k)}>
            {KIND_LABEL[k] ?? k} · {n}
          </button>
        ))}
      </div>
      {shown.length === 0 ? (
        <div className="empty-state small">
          <p>Nothing to fix: every memory is indexed, current and distinct.</p>
        </div>
      ) : (
        <div className="health-groups" aria-label="Findings">
          {grouped.map(([k, items]) => {
            const batch = batchFixOf(items)
            const limit = expanded.has(k) ? items.length : PER_GROUP
            return (
              <section key={k} className="health-group" aria-label={KIND_LABEL[k] ?? k} data-kind-group={k}>
                <header className="health-group-head">
                  <h2>
                    {KIND_LABEL[k] ?? k} <span className="muted">· {items.length}</span>
                  </h2>
                  {batch && (
                    <button
                      type="button"
                      disabled={busy !== undefined}
                      onClick={() => void applyAll(k, batch)}
                    >
                      {busy === `all:${k}` ? 'Fixing…' : `Fix all ${items.length}: ${BATCH_LABEL[batch]}`}
                    </button>
                  )}
                </header>
                <ul className="feed health-list compact" aria-label={`${KIND_LABEL[k] ?? k} findings`}>
                  {items.slice(0, limit).map((f) => (
                    <Finding key={f.id} f={f} busy={busy !== undefined} onOpen={open} onFix={apply} />
                  ))}
                </ul>
                {items.length > limit && (
                  <button
                    type="button"
                    className="ghost"
                    onClick={() => setExpanded((e) => new Set([...e, k]))}
                  >
                    Show {count(items.length - limit, 'more finding')}
                  </button>
                )}
              </section>
            )
          })}
        </div>
      )}
    </div>
  )
}
