import { join, relative, sep } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import type {
  IndexView,
  MemoryDoc,
  MemoryInput,
  MemoryListItem,
  PromptPreview,
  RecallPreview,
  TeamStatus,
  WorkspaceInfo,
} from '../../src-shared/types.js'
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
import {
  MAX_ENTRYPOINT_BYTES,
  MAX_ENTRYPOINT_LINES,
  truncateEntrypointContent,
} from '../core/store/truncate.js'
import { TeamSyncScheduler, type TeamSyncEvent } from '../core/team/scheduler.js'
import type { ActivityLog } from './activity-log.js'
import { loadAppSettings } from './app-data.js'
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
  private scheduler?: TeamSyncScheduler
  private team: TeamStatus = { enabled: false, tokenSet: false, syncing: false }
  private pendingChanges = new Set<string>()
  private flushTimer?: NodeJS.Timeout

  constructor(private readonly deps: WorkspaceDeps) {
    const r = resolveAutoMemPath(deps.ctx)
    this.memoryDir = r.path
    this.teamDir = getTeamMemPath(deps.ctx)
    this.index = new MemoryIndex(this.memoryDir)
    const label = deps.ctx.projectRoot.split(sep).filter(Boolean).pop() ?? deps.ctx.projectRoot
    const settings = loadAppSettings(deps.ctx)
    this.extractor = createExtractionService(deps.ctx, {
      client: deps.model.client,
      enabled: () => settings.extractionEnabled !== false,
      onEvent: (e) => {
        deps.activity.extraction(e, label)
        if (e.type === 'wrote') void this.maybeDream()
      },
    })
  }

  get ctx(): ProjectContext {
    return this.deps.ctx
  }

  async start(): Promise<void> {
    await ensureMemoryDirExists(this.memoryDir)
    await this.index.load()
    this.watcher = watch(this.memoryDir, {
      ignoreInitial: true,
      ignored: (p) => /(^|[\\/])\.[^\\/]+\.tmp$/.test(p) || /[\\/]\.consolidate-lock$/.test(p),
    })
    for (const ev of ['add', 'change', 'unlink'] as const) this.watcher.on(ev, (p) => this.queueChange(p))
    await new Promise<void>((r) => this.watcher!.once('ready', () => r()))
    this.sessions = new SessionWatcher(getProjectTranscriptDir(this.deps.ctx), {
      debounceMs: Number(this.deps.ctx.env.MEMDIR_WATCH_DEBOUNCE_MS) || 500,
      onTurnEnded: (e) => void this.extractor.executeExtractMemories({ messages: e.messages }),
    })
    await this.sessions.start().catch(() => undefined)
    await this.startTeam()
  }

  private queueChange(absPath: string) {
    this.pendingChanges.add(toPosix(relative(this.memoryDir, absPath)))
    clearTimeout(this.flushTimer)
    this.flushTimer = setTimeout(() => void this.flushChanges(), 80)
  }

  private async flushChanges() {
    const paths = [...this.pendingChanges]
    this.pendingChanges.clear()
    await this.index.update(paths)
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
      deps: setup.deps,
      pullIntervalMs: this.deps.teamPullIntervalMs,
      onEvent: (e) => this.onSyncEvent(e),
    })
    await this.scheduler.start()
  }

  private onSyncEvent(e: TeamSyncEvent) {
    if (e.type === 'syncing') this.team = { ...this.team, syncing: true }
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

  private async maybeDream() {
    const dream = createDreamService(this.deps.ctx, {
      client: this.deps.model.client,
      onEvent: (e) => this.deps.activity.dream(e),
    })
    await dream.executeAutoDream()
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
    return docOf(doc)
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
    return docOf(doc)
  }

  async renameMemory(from: string, to: string): Promise<MemoryDoc> {
    const doc = await renameMemory(this.memoryDir, this.writable(from), this.writable(to))
    await this.index.update([from, to])
    return docOf(doc)
  }

  async deleteMemory(relPath: string, expectedHash?: string): Promise<void> {
    const rel = this.writable(relPath)
    await deleteMemory(this.memoryDir, rel, expectedHash)
    await this.index.update([rel])
  }

  async indexView(): Promise<IndexView> {
    const path = join(this.memoryDir, ENTRYPOINT_NAME)
    const raw = await readIfExists(path)
    const t = truncateEntrypointContent(raw ?? '')
    return {
      path,
      exists: raw !== null,
      raw: (raw ?? '').trim(),
      loaded: t.content,
      lineCount: t.lineCount,
      byteCount: t.byteCount,
      maxLines: MAX_ENTRYPOINT_LINES,
      maxBytes: MAX_ENTRYPOINT_BYTES,
      keptLines: t.keptLines,
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
    clearTimeout(this.flushTimer)
    await this.watcher?.close()
    await this.sessions?.close()
    await this.scheduler?.stop()
    await this.extractor.drainPendingExtraction(5000)
  }
}
