import { watch, type FSWatcher } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { sep } from 'node:path'
import { messageOf } from '../../../src-shared/errors.js'
import type { TeamStatus, WorkspaceInfo } from '../../../src-shared/types.js'
import { HistoryStore } from '../../core/history/history-store.js'
import { reconcileHistory } from '../../core/history/recorder.js'
import { resolveAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { type Env, resolveHomeDir, type ProjectContext } from '../../core/paths/context.js'
import { getAutoMemoryEnablement, getTeamMemoryEnablement } from '../../core/paths/enablement.js'
import { getTeamMemPath } from '../../core/paths/team-agent-paths.js'
import { ProposalStore } from '../../core/review/proposals.js'
import { removeStaleTempFiles } from '../../core/store/atomic-write.js'
import { memoryStyleFor } from '../settings/memory-style.js'
import { MemoryIndex } from '../../core/store/memory-index.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import { listMemoryFiles } from '../../core/store/scan.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { MemorySearchIndex } from '../../core/store/search-index.js'
import type { ActivityLog } from '../activity/activity-log.js'
import { activityFileFor } from '../activity/activity-store.js'
import { createHealthService } from '../health/service.js'
import { ChangeRecorder } from '../history/change-recorder.js'
import { createHistoryService } from '../history/service.js'
import { termCacheFor } from '../memories/memory-caches.js'
import { AGENT_PREFIX, agentMemoryRoot } from '../memories/memory-views.js'
import { createMemoriesService } from '../memories/service.js'
import type { HeldMemories } from './cli-answers.js'
import { createPreviewsService } from '../previews/service.js'
import { recallForPrompt, type PromptRecallResult } from '../previews/prompt-recall.js'
import { selectorTimeoutMs } from '../previews/selector-deadline.js'
import { prepareOfflineRanking } from '../../core/recall/offline-ranker.js'
import type { TermCache } from '../../core/recall/term-cache.js'
import type { UserPromptSubmitHook } from '../../../src-shared/hook-input.js'
import { createRunsService } from '../runs/service.js'
import { historyDirFor, proposalsDirFor } from '../settings/app-data.js'
import { loadEffectiveConfig } from '../settings/config.js'
import type { ModelRuntime } from '../settings/model-runtime.js'
import { createTeamService } from '../team/service.js'
import { verifiedTimesFor } from '../previews/staleness-basis.js'

/** Up to this many memories, opening waits for history to catch up with the dir (tests, most users). */
const CATCH_UP_INLINE_MAX = 2_000
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
 * One open workspace: the change recorder (the watcher feeds the index, search and health, and
 * attributes history), and the feature services built on it — memories, previews, history and
 * review, team sync, health and the background runs. Settings changes reopen it, so the
 * configuration read here is current.
 */
export class Workspace {
  readonly memoryDir: string
  readonly teamDir: string
  readonly index: MemoryIndex
  readonly history: HistoryStore
  readonly proposals: ProposalStore
  readonly recorder: ChangeRecorder
  readonly search: MemorySearchIndex
  readonly memories: ReturnType<typeof createMemoriesService>
  readonly previews: ReturnType<typeof createPreviewsService>
  readonly timeline: ReturnType<typeof createHistoryService>
  readonly team: ReturnType<typeof createTeamService>
  readonly health: ReturnType<typeof createHealthService>
  readonly runs: ReturnType<typeof createRunsService>
  private proposalWatcher?: FSWatcher
  /** The offline ranker's preparation at opening (see warmRecall), awaited by close. */
  private warming: Promise<void> = Promise.resolve()
  private readonly termCache: TermCache
  /** Team sync's start, when a large first opening left it for after history's catch-up. */
  private teamStarting: Promise<void> = Promise.resolve()
  private closing = false

  constructor(private readonly deps: WorkspaceDeps) {
    const { ctx } = deps
    const config = loadEffectiveConfig(ctx)
    const scanner = scannerFor(ctx)
    this.memoryDir = resolveAutoMemPath(ctx).path
    this.teamDir = getTeamMemPath(ctx)
    this.index = new MemoryIndex(this.memoryDir, scanner)
    this.termCache = termCacheFor(ctx, this.memoryDir)
    this.search = new MemorySearchIndex(
      [
        { dir: this.memoryDir, prefix: '' },
        { dir: agentMemoryRoot(ctx.projectRoot), prefix: AGENT_PREFIX },
      ],
      scanner,
    )
    this.history = new HistoryStore(historyDirFor(ctx, this.memoryDir))
    this.proposals = new ProposalStore(proposalsDirFor(ctx, this.memoryDir))
    this.recorder = new ChangeRecorder({
      memoryDir: this.memoryDir,
      index: this.index,
      history: this.history,
      onChanged: (paths) => {
        void this.search
          .update(paths)
          .catch((e: unknown) => this.report('The search index could not be updated', e))
        this.health.changed(paths)
        deps.onMemoriesChanged(paths)
      },
      onHistoryError: (e, files) =>
        deps.activity.add({
          kind: 'extraction',
          level: 'warning',
          title: 'History could not record a change',
          detail: messageOf(e),
          files,
        }),
    })
    const writer = this.recorder.writer.bind(this.recorder)
    // How new memories are written: the setting, the user's Claude Code version, the newest memory.
    const style = async () => memoryStyleFor(ctx, await this.index.list(), config.memoryFormat.value)
    this.memories = createMemoriesService(ctx, {
      memoryDir: this.memoryDir,
      agentRoot: agentMemoryRoot(ctx.projectRoot),
      index: this.index,
      search: this.search,
      writer,
      as: { author: 'user' },
      style,
    })
    this.previews = createPreviewsService(ctx, {
      memoryDir: this.memoryDir,
      client: deps.model.client,
      scan: () => this.index.list(Infinity),
      // The offline ranker's terms, kept across recall previews and shared with the CLI and hooks.
      termCache: this.termCache,
      format: async () => (await style()).format,
    })
    this.timeline = createHistoryService(ctx, {
      memoryDir: this.memoryDir,
      history: this.history,
      proposals: this.proposals,
      index: this.index,
      recorder: this.recorder,
      onReviewChanged: deps.onReviewChanged,
    })
    this.team = createTeamService(ctx, {
      recorder: this.recorder,
      history: this.history,
      memoryDir: this.memoryDir,
      activity: deps.activity,
      onStatus: deps.onTeamStatus,
      pullIntervalMs: deps.teamPullIntervalMs,
    })
    this.health = createHealthService(ctx, {
      memoryDir: this.memoryDir,
      history: this.history,
      proposals: this.proposals,
      writer,
      onReviewChanged: deps.onReviewChanged,
      client: deps.model.client,
    })
    this.runs = createRunsService(ctx, {
      client: deps.model.client,
      config,
      proposals: this.proposals,
      writer,
      activity: deps.activity,
      onReviewChanged: deps.onReviewChanged,
      healthFindings: async () => {
        // A fresh check: what the run changed is re-read (the watcher may not have reported it yet).
        this.health.changed(await listMemoryFiles(this.memoryDir, scanner))
        return (await this.health.report()).findings
      },
    })
  }

  /** What the memory list shows: this dir's memories (from the index) and the project's agent memories. */
  async memoryCount(opts: { agents: boolean }): Promise<number> {
    await this.index.load()
    if (!opts.agents) return this.index.size
    const agent = await listMemoryFiles(agentMemoryRoot(this.ctx.projectRoot), scannerFor(this.ctx))
    return this.index.size + agent.length
  }

  /**
   * A Claude Code prompt hook's recall, asked over the agent socket: from this workspace's
   * watcher-fed index and term cache, so the hook process neither scans nor ranks. `env`: the
   * client's, where the hook sent it (agent-jobs.ts), whose auto-memory switches apply.
   */
  recallForPrompt(input: UserPromptSubmitHook, env?: Env): Promise<PromptRecallResult> {
    const { model } = this.deps
    const ctx = env ? { ...this.deps.ctx, env } : this.deps.ctx
    return recallForPrompt(ctx, input, {
      scan: () => this.currentMemories(Infinity),
      termCache: this.termCache,
      scanner: scannerFor(ctx),
      client: model.client,
      selectorTimeoutMs: selectorTimeoutMs(ctx.env),
    })
  }

  /**
   * The newest `limit` memories, with every change the watcher has reported so far: what an agent
   * asking over the socket right after a write is answered from.
   */
  async currentMemories(limit: number): Promise<readonly MemoryHeader[]> {
    await this.recorder.settleIndex()
    return this.index.list(limit)
  }

  /** What `memdir list` and `memdir recall` are answered from while this workspace is open. */
  held(projectRoot: (cwd: string) => string): HeldMemories {
    return {
      memoryDir: this.memoryDir,
      list: (limit) => this.currentMemories(limit),
      termCache: this.termCache,
      scanner: scannerFor(this.ctx),
      projectRoot,
      verifiedTimes: verifiedTimesFor(this.ctx, this.memoryDir),
    }
  }

  private report(title: string, e: unknown) {
    this.deps.activity.add({ kind: 'extraction', level: 'error', title, detail: messageOf(e), files: [] })
  }

  get ctx(): ProjectContext {
    return this.deps.ctx
  }

  /** Opens the workspace; a memory dir that does not exist yet stays so until something is written. */
  async start(): Promise<void> {
    // A process killed mid-write leaves its temp file: the real file is the old or the new content.
    for (const dir of [this.memoryDir, this.history.dir]) await removeStaleTempFiles(dir)
    await this.index.load()
    // The search box's index builds in the worker threads while history catches up on this thread:
    // started last, a first search in a big workspace waited for all of the opening.
    const searchReady = this.search
      .load()
      .catch((e: unknown) => this.report('The search index could not be updated', e))
    await this.deps.activity.attach(activityFileFor(this.deps.ctx, this.memoryDir))
    // Whatever changed while the app was closed is recorded as external, then history is bounded.
    // Writes, and the watcher's records, wait for it (ChangeRecorder.holdUntil); the watcher starts
    // meanwhile, so what changes during it is recorded after it.
    const catchUp = (async () => {
      await reconcileHistory(this.history, this.memoryDir, 'external', {
        stampOf: (path) => this.index.stamp(path),
        deferSync: true,
      })
      await this.history.prune()
    })()
    this.recorder.holdUntil(catchUp)
    // A large dir's first opening copies every memory into history (seconds at 10,000): the
    // workspace opens meanwhile, and what needs history waits for it.
    const inBackground = this.index.size > CATCH_UP_INLINE_MAX
    if (inBackground)
      catchUp.catch((e: unknown) => this.report('History could not catch up with the memory dir', e))
    else await catchUp
    await this.recorder.start()
    await this.runs.start()
    // Proposals other processes add (an MCP client in review mode) reach the inbox at once.
    await mkdir(this.proposals.dir, { recursive: true })
    this.proposalWatcher = watch(this.proposals.dir, () => this.deps.onReviewChanged())
    this.proposalWatcher.on('error', (e) => this.report('Watching the review inbox failed', e))
    // A sync writes what it pulls: after history has caught up.
    if (!inBackground) await this.team.start()
    else
      this.teamStarting = this.recorder
        .caughtUp()
        .then(() => (this.closing ? undefined : this.team.start()))
        .catch((e: unknown) => this.report('Team sync could not start', e))
    // After the search box's index: both read in the scan threads, and the search is what the
    // window shows first.
    this.warming = searchReady
      .then(() => this.warmRecall())
      .catch((e: unknown) => this.report('Preparing recall for the first prompt failed', e))
  }

  /**
   * Reads the offline ranker's terms of every memory the term cache does not hold yet (in the scan
   * threads) and prepares their postings, in the background once the workspace is open: otherwise
   * the first prompt a hook asks about waits for it (~1.5 s at 20,000 memories and no cache).
   */
  private async warmRecall(): Promise<void> {
    if (this.deps.model.client) return // the model selector answers prompts; the ranker only if it fails
    const all = await this.index.list(Infinity)
    await prepareOfflineRanking(all, { cache: this.termCache, scanner: scannerFor(this.ctx) })
    await this.termCache.save(all)
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

  /** Stops taking new work, then waits for what runs (an extraction: up to `drainMs`; a sync) before closing. */
  async close(drainMs = 60_000): Promise<void> {
    this.closing = true
    this.proposalWatcher?.close()
    await this.recorder.caughtUp()
    await this.teamStarting // a sync started after history's catch-up is stopped below
    await this.warming
    await this.runs.close(drainMs)
    await this.team.stop()
    await this.recorder.close()
    await this.history.whenDurable()
  }
}

/** `/home/ada/.claude/projects/x/memory/` → `~/.claude/projects/x/memory/` */
export function shortenHome(path: string, home: string): string {
  const h = home.endsWith(sep) ? home.slice(0, -1) : home
  return h && (path === h || path.startsWith(h + sep)) ? `~${path.slice(h.length)}` : path
}
