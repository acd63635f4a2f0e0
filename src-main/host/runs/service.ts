import { sep } from 'node:path'
import { count } from '../../../src-shared/words.js'
import { MemdirError, messageOf } from '../../../src-shared/errors.js'
import type { DreamRunResult } from '../../../src-shared/types.js'
import type { DreamDeps, DreamEvent } from '../../core/dream/auto-dream.js'
import type { ExtractionEvent } from '../../core/extract/extract-memories.js'
import type { ModelClient } from '../../core/model/client.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { getProjectTranscriptDir } from '../../core/paths/team-agent-paths.js'
import type { ProposalStore } from '../../core/review/proposals.js'
import { SessionWatcher } from '../../core/sessions/session-watcher.js'
import type { RecordedWrite } from '../../core/store/recorded-write.js'
import type { ActivityLog } from '../activity/activity-log.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import type { Writer } from '../history/recording.js'
import type { EffectiveConfig } from '../settings/config.js'
import { createDreamService } from './dream.js'
import { createExtractionService } from './extraction.js'

export interface RunsDeps {
  client?: ModelClient
  config: EffectiveConfig
  proposals: ProposalStore
  writer: (who: Writer) => RecordedWrite
  activity: ActivityLog
  /** Current health findings for the dream run (fresh: what a run changed is re-read). */
  healthFindings: DreamDeps['healthFindings']
  onReviewChanged: () => void
}

/**
 * The background runs of one workspace: extraction when a Claude Code turn ends (the transcript
 * watcher, or a Stop hook's hand-off) and consolidation (dream) after an extraction wrote, or on
 * request; each run's writes are recorded under its run id, its outcome goes to the activity feed.
 */
export function createRunsService(ctx: ProjectContext, deps: RunsDeps) {
  const label = ctx.projectRoot.split(sep).filter(Boolean).pop() ?? ctx.projectRoot
  const review = { enabled: () => deps.config.reviewMode.value, proposals: deps.proposals }
  let sessions: SessionWatcher | undefined

  const report = (kind: 'extraction' | 'dream' | 'sessions', e: unknown) =>
    deps.activity.add({
      kind: kind === 'dream' ? 'dream' : 'extraction',
      level: 'error',
      title: {
        extraction: 'Extraction bookkeeping failed',
        dream: 'Consolidation bookkeeping failed',
        sessions: 'Watching Claude Code sessions failed',
      }[kind],
      detail: messageOf(e),
      files: [],
    })

  const extractor = createExtractionService(ctx, {
    client: deps.client,
    config: deps.config,
    review,
    recordFor: (runId) => deps.writer({ author: 'extraction', runId }),
    onEvent: (e: ExtractionEvent) => {
      if (e.type === 'proposed') deps.onReviewChanged()
      deps.activity.extraction(e, label, 'runId' in e ? e.runId : undefined)
      if (e.type === 'wrote') void dream.executeAutoDream().catch((err: unknown) => report('dream', err))
    },
  })
  // One service for the workspace's lifetime: its session-scan throttle lives in its closure.
  const dream = createDreamService(ctx, {
    client: deps.client,
    config: deps.config,
    review,
    recordFor: (runId) => deps.writer({ author: 'dream', runId }),
    healthFindings: deps.healthFindings,
    onEvent: (e: DreamEvent) => {
      if (e.type === 'proposed') deps.onReviewChanged()
      deps.activity.dream(e, 'runId' in e ? e.runId : undefined)
    },
  })

  return {
    /** Follows the project's transcripts: every finished turn is extracted. */
    async start(): Promise<void> {
      const { env } = ctx
      sessions = new SessionWatcher(getProjectTranscriptDir(ctx), {
        debounceMs: Number(env.MEMDIR_WATCH_DEBOUNCE_MS) || 500,
        idleMs: Number(env.MEMDIR_TURN_IDLE_MS) || undefined,
        onTurnEnded: (e) =>
          void extractor
            .executeExtractMemories({
              messages: e.messages,
              sessionId: e.sessionId,
              clientSaved: e.clientSaved,
            })
            .catch((err: unknown) => report('extraction', err)),
        onError: (e) => report('sessions', e),
      })
      await sessions.start().catch((e: unknown) => report('sessions', e))
    },

    /** A Stop hook's hand-off: the session's turn ended, extract it now. */
    async turnEnded(transcriptPath: string): Promise<void> {
      if (!sessions) throw new MemdirError('NOT_STARTED', 'the workspace is not started')
      await sessions.turnEnded(transcriptPath)
    },

    dreamStatus: () => dream.gateStatus(),

    /** "Dream now": the gates apply unless `force` (which skips the time and session gates only). */
    async dreamRun(force: boolean): Promise<DreamRunResult> {
      const r = await dream.executeAutoDream({ force })
      const message =
        r.type === 'blocked'
          ? r.reason
          : r.type === 'failed'
            ? r.error
            : r.type === 'improved'
              ? r.summary
              : `${count(r.paths.length, 'file')} proposed for review`
      return { outcome: r.type, message }
    },

    /** Stops watching, then waits for a running extraction (up to `drainMs`). */
    async close(drainMs: number): Promise<void> {
      await sessions?.close()
      await extractor.drainPendingExtraction(drainMs)
    },
  }
}

export type RunsService = ReturnType<typeof createRunsService>

export function runsHandlers(runs: () => RunsService): FeatureHandlers<'dream/status' | 'dream/run'> {
  return {
    'dream/status': () => runs().dreamStatus(),
    'dream/run': ({ force }) => runs().dreamRun(force),
  }
}
