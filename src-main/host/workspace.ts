import { join, relative, sep } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import type {
  HistoryDiff,
  HistoryItem,
  ProposalView,
  IndexView,
  MemoryDoc,
  MemoryInput,
  MemoryListItem,
  PromptPreview,
  RecallPreview,
  TeamStatus,
  WorkspaceInfo,
} from '../../src-shared/types.js'
import type { DreamEvent } from '../core/dream/auto-dream.js'
import type { Extractor } from '../core/extract/extract-memories.js'
import { ENTRYPOINT_NAME, resolveAutoMemPath } from '../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../core/paths/context.js'
import { getAutoMemoryEnablement, getTeamMemoryEnablement } from '../core/paths/enablement.js'
import { getProjectTranscriptDir, getTeamMemPath, TEAM_DIRNAME } from '../core/paths/team-agent-paths.js'
import { loadMemoryPromptDetailed } from '../core/prompt/load.js'
import { findRelevantMemories } from '../core/recall/find-relevant.js'
import { memoryAge, memoryFreshnessText } from '../core/recall/freshness.js'
import { buildRecallInjection } from '../core/recall/inject.js'
import { SessionWatcher } from '../core/sessions/session-watcher.js'
import { readIfExists } from '../core/store/atomic-write.js'
import { ensureMemoryDirExists } from '../core/store/ensure-dir.js'
import {
  createMemory,
  deleteMemory,
  readMemory,
  renameMemory,
  slugForName,
  updateMemory,
} from '../core/store/memory-files.js'
import { MemoryIndex } from '../core/store/memory-index.js'
import { indexLocationFor } from '../core/store/memory-files.js'
import {
  MAX_ENTRYPOINT_CHARS,
  MAX_ENTRYPOINT_LINES,
  normalizeEntrypointText,
  truncateEntrypointContent,
} from '../core/store/truncate.js'
import { TeamSyncScheduler, type TeamSyncEvent } from '../core/team/scheduler.js'
import type { ActivityLog } from './activity-log.js'
import { historyDirFor, loadAppSettings, proposalsDirFor } from './app-data.js'
import { HistoryStore, type HistoryAuthor } from '../core/history/history-store.js'
import { diffLines } from '../core/history/line-diff.js'
import { reconcileHistory } from '../core/history/recorder.js'
import { restoreVersion, undoRun } from '../core/history/restore.js'
import { ProposalStore } from '../core/review/proposals.js'
import { createDreamService } from './dream.js'
import { createExtractionService } from './extraction.js'
import { AGENT_PREFIX, docOf, listItemOf } from './memory-views.js'
import type { ModelRuntime } from './model.js'
import { resolveTeamSetup } from './team.js'

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

export class HostError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

const toPosix = (p: string) => p.split(sep).join('/')

/** One open workspace: its memory index and watcher, extraction, dream and team sync. */
export class Workspace {
  readonly memoryDir: string
  readonly teamDir: string
  private readonly index: MemoryIndex
  private watcher?: FSWatcher
  private sessions?: SessionWatcher
  private extractor: Extractor
  private readonly dream: ReturnType<typeof createDreamService>
  private scheduler?: TeamSyncScheduler
  private team: TeamStatus = { enabled: false, tokenSet: false, syncing: false }
  private pendingChanges = new Set<string>()
  private flushTimer?: NodeJS.Timeout
  readonly history: HistoryStore
  readonly proposals: ProposalStore
  /** Who is writing right now: watcher-seen changes are attributed to it. */
  private activeRun?: { author: HistoryAuthor; runId: string }
  private readonly pendingAuthor = new Map<string, { author: HistoryAuthor; runId?: string }>()
  private pullRun = 0
  private closed = false

  constructor(private readonly deps: WorkspaceDeps) {
    const r = resolveAutoMemPath(deps.ctx)
    this.memoryDir = r.path
    this.teamDir = getTeamMemPath(deps.ctx)
    this.index = new MemoryIndex(this.memoryDir)
    this.history = new HistoryStore(historyDirFor(deps.ctx, this.memoryDir))
    this.proposals = new ProposalStore(proposalsDirFor(deps.ctx, this.memoryDir))
    const label = deps.ctx.projectRoot.split(sep).filter(Boolean).pop() ?? deps.ctx.projectRoot
    const settings = loadAppSettings(deps.ctx)
    // Settings changes reopen the workspace, so the snapshot read here is current.
    const review = { enabled: () => settings.reviewMode === true, proposals: this.proposals }
    this.extractor = createExtractionService(deps.ctx, {
      client: deps.model.client,
      enabled: () => settings.extractionEnabled !== false,
      review,
      onEvent: (e) => void this.onExtraction(e, label).catch(() => {}),
    })
    // One service for the workspace's lifetime: its session-scan throttle lives in its closure.
    this.dream = createDreamService(deps.ctx, {
      client: deps.model.client,
      review,
      onEvent: (e) => void this.onDream(e).catch(() => {}),
    })
  }

  private async onDream(e: DreamEvent) {
    if (e.type === 'started') this.activeRun = { author: 'dream', runId: `dream-${Date.now()}` }
    const runId = this.activeRun?.runId
    if (e.type === 'improved' && runId)
      await this.record(
        'dream',
        e.files.map((f) => f.path),
        runId,
      )
    if (e.type !== 'started') this.activeRun = undefined
    if (e.type === 'proposed') this.deps.onReviewChanged()
    this.deps.activity.dream(e, runId)
  }

  private async onExtraction(e: Parameters<ActivityLog['extraction']>[0], label: string) {
    if (e.type === 'started')
      this.activeRun = { author: 'extraction', runId: `extraction-${Date.now()}-${e.runId}` }
    const runId = this.activeRun?.runId
    if (e.type === 'wrote' && runId) await this.record('extraction', e.paths, runId)
    if (e.type !== 'started') this.activeRun = undefined
    if (e.type === 'proposed') this.deps.onReviewChanged()
    this.deps.activity.extraction(e, label, runId)
    if (e.type === 'wrote') void this.dream.executeAutoDream().catch(() => {})
  }

  private async record(author: HistoryAuthor, paths: string[], runId?: string) {
    await reconcileHistory(this.history, this.memoryDir, author, { paths, runId })
  }

  get ctx(): ProjectContext {
    return this.deps.ctx
  }

  async start(): Promise<void> {
    await ensureMemoryDirExists(this.memoryDir)
    await this.index.load()
    // Whatever changed while the app was closed is recorded as external, then history is bounded.
    await reconcileHistory(this.history, this.memoryDir, 'external')
    await this.history.prune()
    this.watcher = watch(this.memoryDir, {
      ignoreInitial: true,
      ignored: (p) => /(^|[\\/])\.[^\\/]+\.tmp$/.test(p) || /[\\/]\.consolidate-lock$/.test(p),
    })
    for (const ev of ['add', 'change', 'unlink'] as const)
      this.watcher.on(ev, (p) => !this.closed && this.queueChange(p))
    await new Promise<void>((r) => this.watcher!.once('ready', () => r()))
    this.sessions = new SessionWatcher(getProjectTranscriptDir(this.deps.ctx), {
      debounceMs: Number(this.deps.ctx.env.MEMDIR_WATCH_DEBOUNCE_MS) || 500,
      idleMs: Number(this.deps.ctx.env.MEMDIR_TURN_IDLE_MS) || undefined,
      onTurnEnded: (e) => void this.extractor.executeExtractMemories({ messages: e.messages }),
    })
    await this.sessions.start().catch(() => undefined)
    await this.startTeam()
  }

  private queueChange(absPath: string) {
    this.pendingChanges.add(toPosix(relative(this.memoryDir, absPath)))
    clearTimeout(this.flushTimer)
    this.flushTimer = setTimeout(() => void this.flushChanges().catch(() => {}), 80)
  }

  private async flushChanges() {
    const paths = [...this.pendingChanges]
    this.pendingChanges.clear()
    await this.index.update(paths)
    const groups = new Map<string, { author: HistoryAuthor; runId?: string; paths: string[] }>()
    for (const p of paths) {
      const who = this.pendingAuthor.get(p) ?? this.activeRun ?? { author: 'external' as const }
      this.pendingAuthor.delete(p)
      const key = `${who.author}\0${who.runId ?? ''}`
      groups.set(key, { ...who, paths: [...(groups.get(key)?.paths ?? []), p] })
    }
    try {
      for (const g of groups.values()) await this.record(g.author, g.paths, g.runId)
    } catch (e) {
      // History must never stop the UI from seeing a change (disk full, app data removed…).
      this.deps.activity.add({
        kind: 'extraction',
        level: 'warning',
        title: 'History could not record a change',
        detail: (e as Error).message,
        files: paths,
      })
    }
    this.deps.onMemoriesChanged(paths)
  }

  private async startTeam() {
    const setup = resolveTeamSetup(this.deps.ctx)
    const settings = loadAppSettings(this.deps.ctx)
    if (!setup.ok) {
      this.team = {
        enabled: false,
        reason: setup.reason,
        url: settings.teamUrl,
        tokenSet: Boolean(settings.teamToken),
        repo: settings.teamRepo,
        syncing: false,
      }
      return
    }
    this.team = { enabled: true, url: setup.url, repo: setup.repo, tokenSet: true, syncing: false }
    this.scheduler = new TeamSyncScheduler({
      deps: {
        ...setup.deps,
        // Keep the local version restorable, then attribute the incoming one to the pull.
        beforeOverwrite: async (key) => {
          const rel = `${TEAM_DIRNAME}/${key}`
          await this.record('external', [rel])
          this.pendingAuthor.set(rel, { author: 'team-pull', runId: `pull-${this.pullRun}` })
        },
      },
      pullIntervalMs: this.deps.teamPullIntervalMs,
      onEvent: (e) => this.onSyncEvent(e),
    })
    await this.scheduler.start()
  }

  private onSyncEvent(e: TeamSyncEvent) {
    if (e.type === 'syncing') {
      this.pullRun = Date.now()
      this.team = { ...this.team, syncing: true }
    }
    if (e.type === 'synced') {
      this.team = {
        ...this.team,
        syncing: false,
        lastError: undefined,
        lastSync: { at: e.at, pulled: e.pulled, pushed: e.pushed, skipped: e.skipped },
      }
    }
    if (e.type === 'error') this.team = { ...this.team, syncing: false, lastError: e.error }
    this.deps.activity.sync(e)
    this.deps.onTeamStatus(this.team)
  }

  info(): WorkspaceInfo {
    const r = resolveAutoMemPath(this.deps.ctx)
    const auto = getAutoMemoryEnablement(this.deps.ctx)
    const team = getTeamMemoryEnablement(this.deps.ctx)
    return {
      projectRoot: this.deps.ctx.projectRoot,
      memoryDir: this.memoryDir,
      teamDir: this.teamDir,
      source: r.source,
      enabled: auto.enabled,
      enabledReason: auto.reason,
      rejected: r.rejected,
      teamEnabled: team.enabled,
      teamReason: team.reason,
      isDemo: this.deps.isDemo,
      modelConfigured: Boolean(this.deps.model.client),
    }
  }

  private agentRoot(): string {
    return join(this.deps.ctx.projectRoot, '.claude', 'agent-memory')
  }

  async listMemories(): Promise<MemoryListItem[]> {
    const now = Date.now()
    const own = (await this.index.list()).map((h) => listItemOf(h, h.filename, now))
    const agent = new MemoryIndex(this.agentRoot())
    const agentItems = (await agent.list()).map((h) => listItemOf(h, AGENT_PREFIX + h.filename, now))
    return [...own, ...agentItems].sort((a, b) => b.mtimeMs - a.mtimeMs)
  }

  private splitAgent(relPath: string): { dir: string; rel: string; agent: boolean } {
    return relPath.startsWith(AGENT_PREFIX)
      ? { dir: this.agentRoot(), rel: relPath.slice(AGENT_PREFIX.length), agent: true }
      : { dir: this.memoryDir, rel: relPath, agent: false }
  }

  private writable(relPath: string): string {
    const p = this.splitAgent(relPath)
    if (p.agent)
      throw new HostError(
        'READ_ONLY',
        'Agent memories are shown read-only; the subagent that owns them edits them.',
      )
    return p.rel
  }

  async readMemory(relPath: string): Promise<MemoryDoc> {
    const p = this.splitAgent(relPath)
    return docOf(await readMemory(p.dir, p.rel), relPath)
  }

  async createMemory(input: MemoryInput, scope: 'private' | 'team', fileName?: string): Promise<MemoryDoc> {
    const base = fileName?.trim()
      ? fileName.endsWith('.md')
        ? fileName.trim()
        : `${fileName.trim()}.md`
      : undefined
    const rel = base ? (scope === 'team' ? `${TEAM_DIRNAME}/${base}` : base) : undefined
    const doc = await createMemory(this.memoryDir, {
      name: input.name,
      description: input.description,
      type: input.type ?? undefined,
      body: input.body,
      relPath: rel ?? (scope === 'team' ? `${TEAM_DIRNAME}/${slugForName(input.name)}.md` : undefined),
    })
    await this.index.update([doc.relPath, ENTRYPOINT_NAME])
    await this.recordUser([doc.relPath])
    return docOf(doc)
  }

  /** Editor writes: the file and the MEMORY.md that indexes it, attributed to the user. */
  private async recordUser(rels: string[]) {
    await this.record('user', [...new Set(rels.flatMap((r) => [r, indexLocationFor(r).indexRel]))])
  }

  async updateMemory(relPath: string, input: MemoryInput, expectedHash: string): Promise<MemoryDoc> {
    const rel = this.writable(relPath)
    const doc = await updateMemory(
      this.memoryDir,
      rel,
      { ...input, type: input.type ?? undefined },
      expectedHash,
    )
    await this.index.update([rel])
    await this.recordUser([rel])
    return docOf(doc)
  }

  async renameMemory(from: string, to: string): Promise<MemoryDoc> {
    const doc = await renameMemory(this.memoryDir, this.writable(from), this.writable(to))
    await this.index.update([from, to])
    await this.recordUser([from, to])
    return docOf(doc)
  }

  async deleteMemory(relPath: string, expectedHash?: string): Promise<void> {
    const rel = this.writable(relPath)
    await deleteMemory(this.memoryDir, rel, expectedHash)
    await this.index.update([rel])
    await this.recordUser([rel])
  }

  async historyList(path?: string): Promise<HistoryItem[]> {
    return (await this.history.list({ path }))
      .map(({ id, at, path: p, author, change, runId }) => ({ id, at, path: p, author, change, runId }))
      .reverse()
  }

  async historyDiff(id: number): Promise<HistoryDiff> {
    const e = await this.history.get(id)
    if (!e) throw new HostError('NOT_FOUND', `No history entry ${id}.`)
    const before = e.before === null ? null : await this.history.blob(e.before)
    const after = e.after === null ? null : await this.history.blob(e.after)
    const { before: _b, after: _a, ...entry } = e
    return { entry, before, after, lines: diffLines(before ?? '', after ?? '') }
  }

  async historyRestore(path: string, id: number): Promise<void> {
    await restoreVersion(this.history, this.memoryDir, path, id)
    await this.index.update([path])
  }

  async historyUndoRun(runId: string): Promise<string[]> {
    const paths = await undoRun(this.history, this.memoryDir, runId)
    await this.index.update(paths)
    return paths
  }

  async reviewList(): Promise<ProposalView[]> {
    return (await this.proposals.list()).map((p) => ({
      ...p,
      files: p.files.map((f) => ({ ...f, lines: diffLines(f.before ?? '', f.after ?? '') })),
    }))
  }

  async reviewApprove(id: string, edits?: Record<string, string | null>): Promise<void> {
    const p = await this.proposals.get(id)
    const runId = `${p.author}-review-${id}`
    this.activeRun = { author: p.author, runId }
    try {
      const applied = await this.proposals.approve(id, this.memoryDir, edits)
      await this.record(
        p.author,
        applied.map((f) => f.path),
        runId,
      )
      await this.index.update(applied.map((f) => f.path))
    } finally {
      this.activeRun = undefined
    }
    this.deps.onReviewChanged()
  }

  async reviewReject(id: string): Promise<void> {
    await this.proposals.reject(id)
    this.deps.onReviewChanged()
  }

  async indexView(): Promise<IndexView> {
    const path = join(this.memoryDir, ENTRYPOINT_NAME)
    const raw = await readIfExists(path)
    const t = truncateEntrypointContent(raw ?? '')
    return {
      path,
      exists: raw !== null,
      raw: normalizeEntrypointText(raw ?? ''),
      loaded: t.content,
      lineCount: t.lineCount,
      charCount: t.charCount,
      maxLines: MAX_ENTRYPOINT_LINES,
      maxChars: MAX_ENTRYPOINT_CHARS,
      keptLines: t.keptLines,
      lineStates: t.lineStates,
      warning: t.warning ?? null,
    }
  }

  async promptPreview(mode: PromptPreview['mode']): Promise<PromptPreview> {
    const r = await loadMemoryPromptDetailed(this.deps.ctx, { mode, ensureDir: false })
    return r.enabled
      ? { mode, enabled: true, prompt: r.prompt }
      : { mode, enabled: false, prompt: null, reason: r.reason }
  }

  async recallPreview(query: string, recentTools: string[]): Promise<RecallPreview> {
    if (!query.trim()) throw new HostError('INVALID_INPUT', 'Type a query to preview recall.')
    const now = Date.now()
    const r = await findRelevantMemories(query, this.memoryDir, {
      client: this.deps.model.client,
      recentTools,
      scan: () => this.index.list(200),
    })
    return {
      mode: r.mode,
      note: r.note,
      error: r.error,
      candidates: r.candidates,
      selected: r.memories.map((m) => ({
        path: m.path,
        relPath: toPosix(relative(this.memoryDir, m.path)),
        age: memoryAge(m.mtimeMs, now),
        freshness: memoryFreshnessText(m.mtimeMs, now),
      })),
      injections: await buildRecallInjection(r.memories, now),
    }
  }

  teamStatus(): TeamStatus {
    return this.team
  }

  async syncNow(): Promise<TeamStatus> {
    if (!this.scheduler) throw new HostError('TEAM_OFF', this.team.reason ?? 'Team sync is not configured.')
    await this.scheduler.syncNow()
    return this.team
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.flushTimer)
    await this.watcher?.close()
    await this.sessions?.close()
    await this.scheduler?.stop()
    await this.extractor.drainPendingExtraction(5000)
  }
}
