import { MemdirError } from '../../../src-shared/errors.js'
import type { TeamStatus } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import type { HistoryStore } from '../../core/history/history-store.js'
import { TeamSyncScheduler, type TeamSyncEvent } from '../../core/team/scheduler.js'
import type { SyncDeps } from '../../core/team/sync.js'
import type { ActivityLog } from '../activity/activity-log.js'
import type { ChangeRecorder } from '../history/change-recorder.js'
import { resolveTeamTarget } from '../settings/team-target.js'
import { resolveTeamSetup, type TeamHistory } from './team-setup.js'

export interface TeamStateDeps {
  ctx: ProjectContext
  recorder: ChangeRecorder
  history: HistoryStore
  memoryDir: string
  activity: ActivityLog
  onStatus: (s: TeamStatus) => void
  pullIntervalMs?: number
}

/** Team sync of one workspace: the scheduler, and the status the Team view shows. */
export class TeamState {
  private scheduler?: TeamSyncScheduler
  private deps_?: SyncDeps
  private current: TeamStatus = { state: 'off', enabled: false, tokenSet: false, syncing: false }

  constructor(private readonly deps: TeamStateDeps) {}

  private readonly teamHistory = (): TeamHistory => ({
    store: this.deps.history,
    memoryDir: this.deps.memoryDir,
    writerFor: (runId) => this.deps.recorder.writer({ author: 'team-pull', runId }),
  })

  async start(): Promise<void> {
    const setup = resolveTeamSetup(this.deps.ctx, this.teamHistory())
    // This project's own target: another project's server, repo or token never shows here.
    const target = resolveTeamTarget(this.deps.ctx)
    const shown = {
      url: target.url,
      repo: target.repo,
      ...(target.repoDefault ? { repoDefault: target.repoDefault } : {}),
      tokenSet: Boolean(target.token),
      memoryDir: this.deps.memoryDir,
      syncing: false,
    }
    if (!setup.ok) {
      this.current = { state: setup.state, enabled: false, reason: setup.reason, ...shown }
      return
    }
    this.current = { state: 'ready', enabled: true, ...shown }
    this.deps_ = setup.deps
    this.scheduler = new TeamSyncScheduler({
      deps: setup.deps,
      pullIntervalMs: this.deps.pullIntervalMs,
      onEvent: (e) => this.onSyncEvent(e),
    })
    await this.scheduler.start()
  }

  private onSyncEvent(e: TeamSyncEvent) {
    if (e.type === 'syncing') {
      // Each sync is its own run in history.
      if (this.deps_) this.deps_.record = this.teamHistory().writerFor(`pull-${Date.now()}`)
      this.current = { ...this.current, state: 'syncing', syncing: true }
    }
    if (e.type === 'synced') {
      this.current = {
        ...this.current,
        state: 'ready',
        syncing: false,
        lastError: undefined,
        lastSync: {
          at: e.at,
          pulled: e.pulled,
          pushed: e.pushed,
          skipped: e.skipped,
          conflicts: e.conflicts,
        },
      }
    }
    if (e.type === 'error')
      this.current = { ...this.current, state: 'error', syncing: false, lastError: e.error }
    this.deps.activity.sync(e)
    this.deps.onStatus(this.current)
  }

  status(): TeamStatus {
    return this.current
  }

  async syncNow(): Promise<TeamStatus> {
    if (!this.scheduler)
      throw new MemdirError('TEAM_OFF', this.current.reason ?? 'Team sync is not configured.')
    await this.scheduler.syncNow()
    return this.current
  }

  async stop(): Promise<void> {
    await this.scheduler?.stop()
  }
}
