import type { DreamEvent } from '../../core/dream/auto-dream.js'
import { count } from '../../../src-shared/words.js'
import type { ExtractionEvent } from '../../core/extract/extract-memories.js'
import type { TeamSyncEvent } from '../../core/team/scheduler.js'
import type { ActivityInput } from './activity-store.js'

type RunKind = { kind: 'extraction' | 'dream' }

const waitingForReview = (
  base: RunKind,
  title: string,
  detail: string,
  proposalId: string,
): ActivityInput => ({
  ...base,
  level: 'info',
  title,
  detail,
  files: [],
  proposalId,
})

const failed = (base: RunKind, title: string, error: string): ActivityInput => ({
  ...base,
  level: 'error',
  title,
  detail: error,
  files: [],
})

/** What the feed shows for background events (the app, the CLI and hook-started runs alike). */
export function extractionActivity(
  e: ExtractionEvent,
  memoryDirLabel: string,
  runId?: string,
): ActivityInput | undefined {
  const base = { kind: 'extraction' as const }
  if (e.type === 'wrote')
    return {
      ...base,
      level: 'success',
      title: `Memory updated in ${memoryDirLabel}`,
      detail: e.summary,
      files: e.paths,
      runId,
    }
  if (e.type === 'proposed')
    return waitingForReview(
      base,
      'New memories waiting for review',
      `${count(e.paths.length, 'file')} proposed: ${e.paths.join(', ')}`,
      e.proposalId,
    )
  if (e.type === 'failed') return failed(base, 'Memory extraction failed', e.error)
  if (e.type === 'skipped' && e.reason.startsWith('needs a model'))
    return { ...base, level: 'warning', title: 'Extraction needs a model', detail: e.reason, files: [] }
  return undefined
}

export function dreamActivity(e: DreamEvent, runId?: string): ActivityInput | undefined {
  const base = { kind: 'dream' as const }
  if (e.type === 'improved')
    return {
      ...base,
      level: 'success',
      title: e.summary,
      detail:
        [
          e.text,
          e.fixed?.length ? `Fixed what health found:\n${e.fixed.map((f) => `• ${f}`).join('\n')}` : '',
        ]
          .filter(Boolean)
          .join('\n\n') || undefined,
      files: e.files.map((f) => f.path),
      runId,
    }
  if (e.type === 'proposed')
    return waitingForReview(
      base,
      'A consolidation is waiting for review',
      count(e.paths.length, 'file'),
      e.proposalId,
    )
  if (e.type === 'failed') return failed(base, 'Consolidation failed', e.error)
  return undefined
}

export function syncActivity(e: TeamSyncEvent): ActivityInput[] {
  const out: ActivityInput[] = []
  if (e.type === 'synced' && e.conflicts.length) {
    out.push({
      kind: 'sync',
      level: 'warning',
      title: `Team memory conflict: ${count(e.conflicts.length, 'file')} changed here and on the server`,
      detail: "The server's version is on disk now; yours is kept in history. Restore yours to push it.",
      files: e.conflicts.map((c) => `team/${c.key}`),
      restore: e.conflicts.flatMap((c) =>
        c.localVersion ? [{ path: `team/${c.key}`, version: c.localVersion }] : [],
      ),
    })
  }
  if (e.type === 'synced' && (e.pulled.length || e.pushed.length || e.skipped.length || e.removed.length)) {
    const parts = [`pulled ${e.pulled.length}`, `pushed ${e.pushed.length}`]
    if (e.removed.length) parts.push(`removed ${e.removed.length} deleted on the server`)
    if (e.skipped.length) parts.push(`skipped ${e.skipped.length}`)
    out.push({
      kind: 'sync',
      level: e.skipped.length ? 'warning' : 'success',
      title: `Team memory synced: ${parts.join(', ')}`,
      detail: e.skipped.map((s) => `${s.key}: ${s.reason}`).join('\n') || undefined,
      files: [...e.pulled, ...e.pushed, ...e.removed].map((k) => `team/${k}`),
    })
  } else if (e.type === 'error') {
    out.push({
      kind: 'sync',
      level: 'error',
      title: 'Team sync failed',
      detail: e.error + (e.retryInMs ? ` — retrying in ${Math.round(e.retryInMs / 1000)} s` : ''),
      files: [],
    })
  }
  return out
}
