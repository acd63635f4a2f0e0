import { messageOf } from '../../../src-shared/errors.js'
import type { FixKind } from '../../core/health/findings.js'
import { count } from '../../../src-shared/words.js'
import { BATCH_FIXES, type BatchFix } from '../../../src-shared/contract.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { ProposalStore } from '../../core/review/proposals.js'
import { proposalsDirFor } from '../../host/settings/app-data.js'
import { WorkspaceHealth } from '../../host/health/workspace-health.js'
import { historyForCli } from '../../host/history/recording.js'
import { modelRuntimeFor } from '../../host/settings/model-runtime.js'
import { type CliIO, printJson, UsageError } from '../io.js'

const FIXABLE = ['remove-pointer', 'add-pointer', 'compact-index', 'update-path', 'merge', 'verify'] as const
type Fixable = (typeof FIXABLE)[number]
const isBatchFix = (fix: string): fix is BatchFix => (BATCH_FIXES as readonly string[]).includes(fix)
const MARK = { error: '✗', warning: '!', info: '·' } as const

/**
 * `memdir doctor`: the workspace's health findings (the same checks and fixes as the Health view);
 * `--fix KIND` applies that fix wherever it applies. Exit 1 while errors remain.
 */
export async function doctorCommand(
  ctx: ProjectContext,
  io: CliIO,
  json: boolean,
  fix?: string,
): Promise<number> {
  if (fix !== undefined && !(FIXABLE as readonly string[]).includes(fix))
    throw new UsageError(`--fix takes one of: ${FIXABLE.join(', ')}`)
  const { store, memoryDir, writer } = await historyForCli(ctx)
  const health = new WorkspaceHealth({
    memoryDir,
    projectRoot: ctx.projectRoot,
    history: store,
    proposals: new ProposalStore(proposalsDirFor(ctx, memoryDir)),
    writer,
    client: modelRuntimeFor(ctx, { maxRetries: 0 }).client,
  })
  const applied: string[] = []
  if (fix) {
    const todo = (await health.report()).findings.filter((f) => f.fixes.includes(fix as FixKind))
    if (isBatchFix(fix)) {
      // One run per kind, as the app's "Fix all": each file once in history, one undo.
      for (const kind of new Set(todo.map((f) => f.kind))) {
        const r = await health.fixAll(kind, fix)
        applied.push(...r.applied, ...r.failed.map((x) => `could not fix ${x.path}: ${x.reason}`))
      }
    } else
      for (const f of todo) {
        try {
          applied.push((await health.fix(f.id, fix as Fixable)).message)
        } catch (e) {
          applied.push(`could not fix ${f.path}: ${messageOf(e)}`)
        }
      }
  }
  // `memdir doctor` is the user asking: it may ask the model about contradictions (one call).
  const report = await health.report({ askModel: true })
  if (json) {
    printJson(io, { ...report, ...(fix ? { applied } : {}) })
    return report.errors ? 1 : 0
  }
  const out: string[] = applied.map((a) => `fixed: ${a}`)
  if (applied.length) out.push('')
  for (const f of report.findings) {
    out.push(`${MARK[f.severity]} ${f.severity.padEnd(7)} ${f.kind.padEnd(19)} ${f.path}  ${f.message}`)
    for (const e of f.evidence.slice(0, 3)) out.push(`      ${e}`)
    const fixes = f.fixes.filter((x) => x !== 'open')
    if (fixes.length) out.push(`      fix: ${fixes.map((x) => `memdir doctor --fix ${x}`).join(' | ')}`)
  }
  const asked = report.contradictions
  if (asked !== 'off' && asked.failed) out.push(`(the model's contradiction check failed: ${asked.failed})`)
  else if (asked !== 'off' && asked.unchecked)
    out.push(
      `(${count(asked.unchecked, 'more same-topic pair')} not checked for contradictions: one model call checks 12)`,
    )
  const git = report.git.available
    ? `${count(report.git.commits, 'commit')} checked`
    : 'no git history (code links not checked)'
  out.push(
    `${report.findings.length ? '\n' : ''}${count(report.memories, 'memory', 'memories')}, ${git}: ${count(report.errors, 'error')}, ${count(report.warnings, 'warning')}, ${count(report.findings.length - report.errors - report.warnings, 'note')}`,
  )
  io.stdout(out.join('\n') + '\n')
  return report.errors ? 1 : 0
}
