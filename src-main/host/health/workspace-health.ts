import { readTextFile } from '../../core/store/regular-file.js'
import { MemdirError } from '../../../src-shared/errors.js'
import { count } from '../../../src-shared/words.js'
import type { BatchFix } from '../../../src-shared/contract.js'
import type { HealthFixAllResult, HealthFixResult, HealthView } from '../../../src-shared/types.js'
import type { HistoryStore } from '../../core/history/history-store.js'
import type { Finding, FixKind } from '../../core/health/findings.js'
import {
  addMissingPointer,
  compactIndex,
  FixError,
  type FixOutcome,
  fixPointers,
  mergeProposalFiles,
  removeDeadPointer,
  updateMentionedPath,
} from '../../core/health/fixes.js'
import { HealthChecker, type HealthOptions, type HealthReport } from '../../core/health/health-checker.js'
import type { ModelClient } from '../../core/model/client.js'
import type { ProposalStore } from '../../core/review/proposals.js'
import { resolveContainedPath } from '../../core/store/contained-path.js'
import { batchedWrite, type RecordedWrite } from '../../core/store/recorded-write.js'
import type { Writer } from '../history/recording.js'
import type { Scanner } from '../../core/store/scan.js'
import { SerialQueue } from '../../core/store/serial-queue.js'

export interface WorkspaceHealthDeps {
  memoryDir: string
  projectRoot?: string
  history: HistoryStore
  proposals: ProposalStore
  /** The recorded write for a writer: the app's recorder, or the CLI's (history.ts). */
  writer: (who: Writer) => RecordedWrite
  onReviewChanged?: () => void
  options?: HealthOptions
  /** A configured model: same-topic memories are checked for contradictions. */
  client?: ModelClient
  /** Where memory files are read (the entry point's choice). */
  scanner?: Scanner
}

/**
 * Health of the open workspace: the checker fed by the watcher (changed memories are re-read, the
 * rest is cached), "mark as still true" from history, and the one-click fixes — each written as
 * the user's change (so it is in history) or, for a merge, proposed in the review inbox.
 */
export class WorkspaceHealth {
  private readonly checker: HealthChecker
  private verified = new Map<string, number>()
  private last?: HealthReport
  private running?: Promise<HealthReport>
  private readonly fixes = new SerialQueue()

  constructor(private readonly deps: WorkspaceHealthDeps) {
    this.checker = new HealthChecker({
      memoryDir: deps.memoryDir,
      projectRoot: deps.projectRoot,
      verifiedAt: (rel) => this.verified.get(rel),
      options: deps.options,
      scanner: deps.scanner,
      ...(deps.client ? { model: { client: deps.client, model: deps.client.config.selectorModel } } : {}),
    })
  }

  /** The watcher saw these memories change. */
  changed(relPaths: Iterable<string>): void {
    this.checker.invalidate(relPaths)
  }

  /**
   * One check at a time; callers during a check share it. The model is asked about contradictions
   * only with `askModel` (the user asked): a plain report costs no model call.
   */
  async report(opts: { askModel?: boolean } = {}): Promise<HealthView> {
    if (opts.askModel) await this.running?.catch(() => undefined)
    const run = async () => {
      try {
        this.verified = await this.deps.history.verifiedTimes()
        this.last = await this.checker.check({ askModel: opts.askModel === true })
        return this.last
      } finally {
        this.running = undefined
      }
    }
    if (opts.askModel) return await (this.running = run())
    this.running ??= run()
    return await this.running
  }

  /** The findings of the last check (or a fresh one), for dream's input. */
  async findings(): Promise<Finding[]> {
    return (this.last ?? (await this.report())).findings as Finding[]
  }

  /** One fix or "Fix all" at a time, each against the findings the one before it left. */
  fix(id: string, fix: Exclude<FixKind, 'open'>): Promise<HealthFixResult> {
    return this.fixes.run(() => this.fixOne(id, fix))
  }

  private async fixOne(id: string, fix: Exclude<FixKind, 'open'>): Promise<HealthFixResult> {
    const f = (await this.report()).findings.find((x) => x.id === id) as Finding | undefined
    if (!f) throw new MemdirError('NOT_FOUND', 'That finding is gone (it may have been fixed already).')
    if (!f.fixes.includes(fix))
      throw new MemdirError('BAD_REQUEST', `"${fix}" does not apply to this finding.`)
    return this.apply(f, fix, this.deps.writer({ author: 'user' }))
  }

  /**
   * One fix on every finding of a kind, as one run of the user's: each file written once in
   * history however many findings touched it, and the whole batch undone by undoing the run.
   */
  fixAll(kind: string, fix: BatchFix): Promise<HealthFixAllResult> {
    // Asked twice at once (a double click, the CLI beside the window), the second found the same
    // findings, fixed nothing, and said "Fixed 5 findings" with a run that had nothing to undo.
    return this.fixes.run(() => this.fixEvery(kind, fix))
  }

  private async fixEvery(kind: string, fix: BatchFix): Promise<HealthFixAllResult> {
    const targets = ((await this.report()).findings as Finding[]).filter(
      (f) => f.kind === kind && f.fixes.includes(fix),
    )
    if (!targets.length) throw new MemdirError('NOT_FOUND', 'No finding of that kind is left to fix.')
    const runId = `fix-${kind}-${Date.now().toString(36)}`
    const batch = batchedWrite(this.deps.writer({ author: 'user', runId }))
    const changed = new Set<string>()
    const failed: HealthFixAllResult['failed'] = []
    const applied: string[] = []
    const outcomes = async (): Promise<FixOutcome[]> => {
      if (fix === 'remove-pointer' || fix === 'add-pointer') {
        try {
          return await fixPointers(this.deps.memoryDir, fix, targets, batch.record)
        } finally {
          this.checker.invalidate(targets.map((f) => f.path))
        }
      }
      const each: FixOutcome[] = []
      for (const finding of targets) {
        try {
          each.push({ finding, changed: (await this.apply(finding, fix, batch.record)).changed })
        } catch (error) {
          each.push({ finding, error })
        }
      }
      return each
    }
    try {
      for (const o of await outcomes()) {
        if ('changed' in o) {
          applied.push(fixedMessage(o.finding, fix))
          for (const c of o.changed) changed.add(c)
          continue
        }
        const e = asFixError(o.error)
        if (!(e instanceof MemdirError)) throw e
        failed.push({ path: o.finding.path, reason: e.message })
      }
    } finally {
      await batch.done()
    }
    const fixed = targets.length - failed.length
    return {
      message: `Fixed ${count(fixed, 'finding')}${changed.size ? ` in ${count(changed.size, 'file')}` : ''}${
        failed.length ? `; ${count(failed.length, 'finding')} could not be fixed` : ''
      }`,
      changed: [...changed],
      ...(changed.size ? { runId } : {}),
      failed,
      applied,
    }
  }

  private async apply(
    f: Finding,
    fix: Exclude<FixKind, 'open'>,
    record: RecordedWrite,
  ): Promise<HealthFixResult> {
    const done = (changed: string[]) => ({ message: fixedMessage(f, fix), changed })
    try {
      switch (fix) {
        case 'remove-pointer':
          return done(await removeDeadPointer(this.deps.memoryDir, f, record))
        case 'add-pointer':
          return done(await addMissingPointer(this.deps.memoryDir, f, record))
        case 'compact-index':
          return done(await compactIndex(this.deps.memoryDir, f, record))
        case 'update-path':
          return done(await updateMentionedPath(this.deps.memoryDir, f, record))
        case 'verify': {
          const text = await readTextFile(await resolveContainedPath(this.deps.memoryDir, f.path))
          await this.deps.history.recordVerified(f.path, text)
          this.checker.invalidate([f.path])
          return done([])
        }
        case 'merge': {
          const files = await mergeProposalFiles(this.deps.memoryDir, f)
          const p = await this.deps.proposals.create({
            author: 'health',
            reason: `Merge ${f.other} into ${f.path}: ${f.message}`,
            files,
          })
          this.deps.onReviewChanged?.()
          return { ...done([]), proposalId: p.id }
        }
      }
      throw new MemdirError('BAD_REQUEST', `Unknown fix: ${String(fix)}`)
    } catch (e) {
      throw asFixError(e)
    } finally {
      this.checker.invalidate([f.path, ...(f.other ? [f.other] : [])])
    }
  }
}

/** What the user is told a fix did to a finding. */
function fixedMessage(f: Finding, fix: Exclude<FixKind, 'open'>): string {
  switch (fix) {
    case 'remove-pointer':
      return `Removed the pointer to ${f.subject}`
    case 'add-pointer':
      return `Added ${f.path} to the index`
    case 'compact-index':
      return `Moved detail out of ${f.path}`
    case 'update-path':
      return `${f.subject} → ${f.movedTo} in ${f.path}`
    case 'verify':
      return `Marked ${f.path} as still true`
    case 'merge':
      return 'Merge proposed in the review inbox'
  }
}

/** A fix's own refusal (the files no longer fit the finding) as the user's conflict. */
const asFixError = (e: unknown) => (e instanceof FixError ? new MemdirError('CONFLICT', e.message) : e)
