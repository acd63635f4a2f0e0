import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { ContradictionStatus, HealthFindingView, HealthFixKind } from '../../../../src-shared/types'
import type { BatchFix } from '../../../../src-shared/contract'
import { count } from '../../../../src-shared/words'
import { errorMessage, relativeDate, undoMessage } from '../../lib/format'
import { useStore } from '../../app/store'

const KIND_LABEL: Record<string, string> = {
  'dead-pointer': 'Pointer to a missing file',
  'link-outside': 'Link out of memory',
  'index-not-file': 'Index is not a file',
  'index-unreadable': 'Index too deeply nested',
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

/** One row of the virtualised list: a kind's heading (with its count and "Fix all"), or a finding. */
type Row =
  | { head: true; kind: string; items: HealthFindingView[]; folded: boolean }
  | { head: false; f: HealthFindingView; at: number; of: number }

function rowsOf(grouped: [string, HealthFindingView[]][], folded: Set<string>): Row[] {
  const rows: Row[] = []
  for (const [kind, items] of grouped) {
    rows.push({ head: true, kind, items, folded: folded.has(kind) })
    if (!folded.has(kind)) items.forEach((f, i) => rows.push({ head: false, f, at: i + 1, of: items.length }))
  }
  return rows
}

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
  at: number
  of: number
  busy: boolean
  onOpen: (path: string) => void
  onFix: (f: HealthFindingView, fix: HealthFixKind) => Promise<void>
}) {
  const { f } = props
  const [evidence, setEvidence] = useState(false)
  return (
    <article
      className={`finding ${f.severity}`}
      data-kind={f.kind}
      aria-label={`${KIND_LABEL[f.kind] ?? f.kind} ${props.at.toLocaleString('en')} of ${props.of.toLocaleString('en')}: ${f.path}`}
    >
      <div className="finding-line">
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
        <span className="finding-message">{f.message}</span>
        {f.evidence.length > 0 && (
          <button
            type="button"
            className="ghost evidence-toggle"
            aria-expanded={evidence}
            onClick={() => setEvidence((o) => !o)}
          >
            Evidence
          </button>
        )}
        <span className="spacer" />
        {f.fixes
          .filter((x) => x !== 'open' || isMemory(f.path))
          .map((fix) => (
            <button key={fix} type="button" disabled={props.busy} onClick={() => void props.onFix(f, fix)}>
              {fixLabel(fix, f)}
            </button>
          ))}
      </div>
      {evidence && (
        <ul className="evidence mono">
          {f.evidence.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </article>
  )
}

export function HealthView() {
  const health = useStore((s) => s.health)
  const refreshHealth = useStore((s) => s.refreshHealth)
  const open = useStore((s) => s.openFile)
  const checkContradictionsNow = useStore((s) => s.checkContradictions)
  const fixFinding = useStore((s) => s.fixFinding)
  const fixAllOfKind = useStore((s) => s.fixAll)
  const undoRun = useStore((s) => s.undoRun)
  const [kind, setKind] = useState<string>()
  const [busy, setBusy] = useState<string>()
  const [status, setStatus] = useState<{ text: string; error?: boolean; undo?: string }>()
  const [folded, setFolded] = useState<Set<string>>(new Set())

  useEffect(() => {
    void refreshHealth()
  }, [refreshHealth])

  const shown = useMemo(
    () => (health?.findings ?? []).filter((f) => !kind || f.kind === kind),
    [health, kind],
  )
  const rows = useMemo(() => rowsOf(groups(shown), folded), [shown, folded])
  const scroller = useRef<HTMLDivElement>(null)
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]!.head ? 44 : 40),
    getItemKey: (i) => {
      const r = rows[i]!
      return r.head ? `kind:${r.kind}` : r.f.id
    },
    overscan: 10,
  })

  const run = async (key: string, fn: () => Promise<void>) => {
    setBusy(key)
    setStatus(undefined)
    try {
      await fn()
    } catch (e) {
      setStatus({ text: errorMessage(e), error: true })
    } finally {
      setBusy(undefined)
    }
  }

  const checkContradictions = () => run('contradictions', checkContradictionsNow)

  const applyAll = (k: string, fix: FileBatchFix) =>
    run(`all:${k}`, async () => {
      const r = await fixAllOfKind(k, fix)
      const failed = r.failed.length ? ` (${r.failed.map((x) => `${x.path}: ${x.reason}`).join('; ')})` : ''
      setStatus({ text: `${r.message}${failed}.`, undo: r.runId, error: r.failed.length > 0 })
    })

  const undoBatch = (runId: string) =>
    run('undo', async () => {
      setStatus({ text: undoMessage(await undoRun(runId), 'the fix') })
      await refreshHealth()
    })

  const apply = async (f: HealthFindingView, fix: HealthFixKind) => {
    if (fix === 'open') return open(f.path)
    await run(f.id + fix, async () => {
      const r = await fixFinding(f.id, fix)
      setStatus({ text: r.proposalId ? `${r.message}.` : `${r.message} (in history).` })
    })
  }

  const toggleFold = (k: string) =>
    setFolded((was) => {
      const next = new Set(was)
      if (!next.delete(k)) next.add(k)
      return next
    })

  if (!health) return <div className="page muted">Checking memory health…</div>
  const notes = health.findings.length - health.errors - health.warnings
  return (
    <div className="page health-page">
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
          ? `the project's git history (${count(health.git.commits, 'commit')})`
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
        // Only the rows in view are drawn: thousands of findings scroll like a few.
        <div ref={scroller} className="health-scroll" role="region" aria-label="Findings">
          <div className="health-rows" style={{ height: virtual.getTotalSize() }}>
            {virtual.getVirtualItems().map((v) => {
              const r = rows[v.index]!
              return (
                <div
                  key={v.key}
                  data-index={v.index}
                  ref={virtual.measureElement}
                  className="health-row"
                  style={{ transform: `translateY(${v.start}px)` }}
                >
                  {r.head ? (
                    <GroupHead
                      kind={r.kind}
                      items={r.items}
                      folded={r.folded}
                      busy={busy}
                      onFold={() => toggleFold(r.kind)}
                      onFixAll={(fix) => void applyAll(r.kind, fix)}
                    />
                  ) : (
                    <Finding
                      f={r.f}
                      at={r.at}
                      of={r.of}
                      busy={busy !== undefined}
                      onOpen={open}
                      onFix={apply}
                    />
                  )}
                </div>
              )
            })}
          </div>
        </div>
      )}
    </div>
  )
}

function GroupHead(props: {
  kind: string
  items: HealthFindingView[]
  folded: boolean
  busy?: string
  onFold: () => void
  onFixAll: (fix: FileBatchFix) => void
}) {
  const { kind, items } = props
  const label = KIND_LABEL[kind] ?? kind
  const batch = batchFixOf(items)
  const n = items.length.toLocaleString('en')
  return (
    <header className="health-group-head" data-kind-group={kind}>
      <button
        type="button"
        className="fold"
        aria-expanded={!props.folded}
        aria-label={`${props.folded ? 'Show' : 'Hide'} ${label}`}
        onClick={props.onFold}
      >
        {props.folded ? '▸' : '▾'}
      </button>
      <h2>
        {label} <span className="muted">· {n}</span>
      </h2>
      {batch && (
        <button type="button" disabled={props.busy !== undefined} onClick={() => props.onFixAll(batch)}>
          {props.busy === `all:${kind}` ? 'Fixing…' : `Fix all ${n}: ${BATCH_LABEL[batch]}`}
        </button>
      )}
    </header>
  )
}
