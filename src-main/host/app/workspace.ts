import { MemdirError } from '../../../src-shared/errors.js'
import { sep } from 'node:path'
import { resolveHomeDir } from '../../core/paths/context.js'
import type {
  DreamRunResult,
  DreamStatusView,
  IndexView,
  PromptPreview,
  RecallPreview,
  TeamStatus,
  WorkspaceInfo,
} from '../../../src-shared/types.js'
import type { DreamEvent } from '../../core/dream/auto-dream.js'
import type { ExtractionEvent, Extractor } from '../../core/extract/extract-memories.js'
import { HistoryStore } from '../../core/history/history-store.js'
import { reconcileHistory } from '../../core/history/recorder.js'
import type { TermCache } from '../../core/recall/term-cache.js'
import { resolveAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { getAutoMemoryEnablement, getTeamMemoryEnablement } from '../../core/paths/enablement.js'
import { getProjectTranscriptDir, getTeamMemPath } from '../../core/paths/team-agent-paths.js'
import { ProposalStore } from '../../core/review/proposals.js'
import { SessionWatcher } from '../../core/sessions/session-watcher.js'
import { MemorySearchIndex } from '../../core/store/search-index.js'
import { agentMemoryRoot } from './workspace-list.js'
import { AGENT_PREFIX } from '../memories/memory-views.js'
import { watch, type FSWatcher } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { removeStaleTempFiles } from '../../core/store/atomic-write.js'
import type { MemoryFormat } from '../../core/store/frontmatter.js'
import { preferredMemoryFormat } from '../../core/store/memory-format.js'
import { MemoryIndex } from '../../core/store/memory-index.js'
import type { ActivityLog } from '../activity/activity-log.js'
import { activityFileFor } from '../activity/activity-store.js'
import { historyDirFor, proposalsDirFor } from '../settings/app-data.js'
import { loadEffectiveConfig, type EffectiveConfig } from '../settings/config.js'
import { ChangeRecorder } from '../history/change-recorder.js'
import { createDreamService } from '../runs/dream.js'
import { createExtractionService } from '../runs/extraction.js'
import { HistoryReview } from '../history/history-review.js'
import { WorkspaceHealth } from '../health/workspace-health.js'
import { listMemoryFiles } from '../../core/store/scan.js'
import { MemoryCrud } from '../memories/memory-crud.js'
import type { ModelRuntime } from '../settings/model-runtime.js'
import { TeamState } from '../team/team-state.js'
import { indexView } from '../memories/index-view.js'
import { termCacheFor } from '../memories/memory-caches.js'
import { recallPreview } from '../previews/recall-view.js'
import { promptPreview } from '../previews/prompt-view.js'

export interface WorkspaceDeps {
  ctx: ProjectContext
  model: ModelRuntime
  activity: ActivityLog
  isDemo: boolean
  onMemoriesChanged: (paths: string[]) => void
  onTeamStatus: (s: TeamStatus) => void
  onReviewChanged: () => void
  /** Pull interval for team sync; the scheduler debounces pushes itself. */
  teamPullIntervalMs?: number
}

/**
 * One open workspace, composed of: the change recorder (watcher → index + attributed history),
 * team state, memory CRUD, history and review, and the read-only views; plus the background
 * extraction and dream services whose runs it attributes.
 */
export class Workspace {
  readonly memoryDir: string
  readonly teamDir: string
  readonly index: MemoryIndex
  readonly history: HistoryStore
  readonly proposals: ProposalStore
  readonly recorder: ChangeRecorder
  readonly team: TeamState
  readonly memories: MemoryCrud
  readonly timeline: HistoryReview
  readonly config: EffectiveConfig
  /** Full-text search over the memories (built in the background when the workspace opens). */
  readonly search: MemorySearchIndex
  /** The offline ranker's terms, kept across recall previews and shared with the CLI and hooks. */
  private readonly termCache: TermCache
  readonly health: WorkspaceHealth
  private sessions?: SessionWatcher
  private proposalWatcher?: FSWatcher
  private readonly extractor: Extractor
  private readonly dream: ReturnType<typeof createDreamService>

  constructor(private readonly deps: WorkspaceDeps) {
    const { ctx } = deps
    this.memoryDir = resolveAutoMemPath(ctx).path
    this.teamDir = getTeamMemPath(ctx)
    this.index = new MemoryIndex(this.memoryDir)
    this.termCache = termCacheFor(ctx, this.memoryDir)
    this.search = new MemorySearchIndex([
      { dir: this.memoryDir, prefix: '' },
      { dir: agentMemoryRoot(ctx.projectRoot), prefix: AGENT_PREFIX },
    ])
    this.history = new HistoryStore(historyDirFor(ctx, this.memoryDir))
    this.proposals = new ProposalStore(proposalsDirFor(ctx, this.memoryDir))
    // Settings changes reopen the workspace, so the snapshot read here is current.
    this.config = loadEffectiveConfig(ctx)
    this.recorder = new ChangeRecorder({
      memoryDir: this.memoryDir,
      index: this.index,
      history: this.history,
      onChanged: (paths) => {
        void this.search.update(paths).catch((e: Error) => this.reportError('search', e))
        this.health.changed(paths)
        deps.onMemoriesChanged(paths)
      },
      onHistoryError: (e, files) =>
        deps.activity.add({
          kind: 'extraction',
          level: 'warning',
          title: 'History could not record a change',
          detail: e.message,
          files,
        }),
    })
    this.team = new TeamState({
      ctx,
      recorder: this.recorder,
      history: this.history,
      memoryDir: this.memoryDir,
      activity: deps.activity,
      onStatus: deps.onTeamStatus,
      pullIntervalMs: deps.teamPullIntervalMs,
    })
    this.memories = new MemoryCrud({
      memoryDir: this.memoryDir,
      agentRoot: agentMemoryRoot(ctx.projectRoot),
      index: this.index,
      recorder: this.recorder,
      format: () => this.memoryFormat(),
    })
    this.timeline = new HistoryReview({
      memoryDir: this.memoryDir,
      history: this.history,
      proposals: this.proposals,
      index: this.index,
      recorder: this.recorder,
      onReviewChanged: deps.onReviewChanged,
    })
    this.health = new WorkspaceHealth({
      memoryDir: this.memoryDir,
      projectRoot: ctx.projectRoot,
      history: this.history,
      proposals: this.proposals,
      writer: (who) => this.recorder.writer(who),
      onReviewChanged: deps.onReviewChanged,
      client: deps.model.client,
    })
    const label = ctx.projectRoot.split(sep).filter(Boolean).pop() ?? ctx.projectRoot
    const review = { enabled: () => this.config.reviewMode.value, proposals: this.proposals }
    this.extractor = createExtractionService(ctx, {
      client: deps.model.client,
      config: this.config,
      review,
      recordFor: (runId) => this.recorder.writer({ author: 'extraction', runId }),
      onEvent: (e) =>
        void this.onExtraction(e, label).catch((err: Error) => this.reportError('extraction', err)),
    })
    // One service for the workspace's lifetime: its session-scan throttle lives in its closure.
    this.dream = createDreamService(ctx, {
      client: deps.model.client,
      config: this.config,
      review,
      recordFor: (runId) => this.recorder.writer({ author: 'dream', runId }),
      healthFindings: async () => {
        // A fresh check: what the run changed is re-read (the watcher may not have reported it yet).
        this.health.changed(await listMemoryFiles(this.memoryDir))
        return (await this.health.report()).findings
      },
      onEvent: (e) => void this.onDream(e).catch((err: Error) => this.reportError('dream', err)),
    })
  }

  private reportError(kind: 'extraction' | 'dream' | 'sessions' | 'search' | 'inbox', e: Error) {
    const titles = {
      extraction: 'Extraction bookkeeping failed',
      dream: 'Consolidation bookkeeping failed',
      sessions: 'Watching Claude Code sessions failed',
      search: 'The search index could not be updated',
      inbox: 'Watching the review inbox failed',
    }
    this.deps.activity.add({
      kind: kind === 'dream' ? 'dream' : 'extraction',
      level: 'error',
      title: titles[kind],
      detail: e.message,
      files: [],
    })
  }

  /** The format new memories are written in: the setting, else the newest memory's. */
  async memoryFormat(): Promise<MemoryFormat> {
    return preferredMemoryFormat(await this.index.list(), this.config.memoryFormat.value)
  }

  /** A run's writes are already in history under its run id (its recorded write): report it. */
  private async onDream(e: DreamEvent) {
    if (e.type === 'proposed') this.deps.onReviewChanged()
    this.deps.activity.dream(e, 'runId' in e ? e.runId : undefined)
  }

  private async onExtraction(e: ExtractionEvent, label: string) {
    if (e.type === 'proposed') this.deps.onReviewChanged()
    this.deps.activity.extraction(e, label, 'runId' in e ? e.runId : undefined)
    if (e.type === 'wrote')
      void this.dream.executeAutoDream().catch((err: Error) => this.reportError('dream', err))
  }

  dreamStatus(): Promise<DreamStatusView> {
    return this.dream.gateStatus()
  }

  /** "Dream now": the gates apply unless `force` (which skips the time and session gates only). */
  async dreamRun(force: boolean): Promise<DreamRunResult> {
    const r = await this.dream.executeAutoDream({ force })
    const message =
      r.type === 'blocked'
        ? r.reason
        : r.type === 'failed'
          ? r.error
          : r.type === 'improved'
            ? r.summary
            : `${r.paths.length} file(s) proposed for review`
    return { outcome: r.type, message }
  }

  /** Proposals other processes add (an MCP client in review mode) reach the inbox at once. */
  private async watchProposals(): Promise<void> {
    await mkdir(this.proposals.dir, { recursive: true })
    this.proposalWatcher = watch(this.proposals.dir, () => this.deps.onReviewChanged())
    this.proposalWatcher.on('error', (e) => this.reportError('inbox', e))
  }

  /** A Stop hook's hand-off: the session's turn ended, extract it now. */
  async turnEnded(transcriptPath: string): Promise<void> {
    if (!this.sessions) throw new MemdirError('NOT_STARTED', 'the workspace is not started')
    await this.sessions.turnEnded(transcriptPath)
  }

  get ctx(): ProjectContext {
    return this.deps.ctx
  }

  /** Opens the workspace; a memory dir that does not exist yet stays so until something is written. */
  async start(): Promise<void> {
    // A process killed mid-write leaves its temp file: the real file is the old or the new content.
    for (const dir of [this.memoryDir, this.history.dir]) await removeStaleTempFiles(dir)
    await this.index.load()
    await this.deps.activity.attach(activityFileFor(this.deps.ctx, this.memoryDir))
    // Whatever changed while the app was closed is recorded as external, then history is bounded.
    await reconcileHistory(this.history, this.memoryDir, 'external')
    await this.history.prune()
    await this.recorder.start()
    const { env } = this.deps.ctx
    this.sessions = new SessionWatcher(getProjectTranscriptDir(this.deps.ctx), {
      debounceMs: Number(env.MEMDIR_WATCH_DEBOUNCE_MS) || 500,
      idleMs: Number(env.MEMDIR_TURN_IDLE_MS) || undefined,
      onTurnEnded: (e) =>
        void this.extractor
          .executeExtractMemories({ messages: e.messages, sessionId: e.sessionId })
          .catch((err: Error) => this.reportError('extraction', err)),
      onError: (e) => this.reportError('sessions', e),
    })
    await this.sessions.start().catch((e: Error) => this.reportError('sessions', e))
    await this.watchProposals()
    void this.search.load().catch((e: Error) => this.reportError('search', e))
    await this.team.start()
  }

  info(): WorkspaceInfo {
    const r = resolveAutoMemPath(this.deps.ctx)
    const auto = getAutoMemoryEnablement(this.deps.ctx)
    const team = getTeamMemoryEnablement(this.deps.ctx)
    return {
      projectRoot: this.deps.ctx.projectRoot,
      memoryDir: this.memoryDir,
      memoryDirShort: shortenHome(this.memoryDir, resolveHomeDir(this.deps.ctx)),
      teamDir: this.teamDir,
      source: this.deps.isDemo ? 'demo' : r.source,
      enabled: auto.enabled,
      enabledReason: auto.reason,
      rejected: r.rejected,
      teamEnabled: team.enabled,
      teamReason: team.reason,
      isDemo: this.deps.isDemo,
      modelConfigured: Boolean(this.deps.model.client),
    }
  }

  indexView(): Promise<IndexView> {
    return indexView(this.memoryDir)
  }

  async promptPreview(mode: PromptPreview['mode']): Promise<PromptPreview> {
    const { memoryDir: _dir, ...preview } = await promptPreview(
      this.deps.ctx,
      mode,
      await this.memoryFormat(),
    )
    return preview
  }

  recallPreview(query: string, recentTools: string[]): Promise<RecallPreview> {
    return recallPreview(this.memoryDir, query, {
      client: this.deps.model.client,
      recentTools,
      scan: () => this.index.list(200),
      projectRoot: this.ctx.projectRoot,
      termCache: this.termCache,
    })
  }

  /** Stops taking new work, then waits for what runs (an extraction: up to `drainMs`; a sync) before closing. */
  async close(drainMs = 60_000): Promise<void> {
    this.proposalWatcher?.close()
    await this.sessions?.close()
    await this.extractor.drainPendingExtraction(drainMs)
    await this.team.stop()
    await this.recorder.close()
  }
}

/** `/home/ada/.claude/projects/x/memory/` → `~/.claude/projects/x/memory/` */
export function shortenHome(path: string, home: string): string {
  const h = home.endsWith(sep) ? home.slice(0, -1) : home
  return h && (path === h || path.startsWith(h + sep)) ? `~${path.slice(h.length)}` : path
}
