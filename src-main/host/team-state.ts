import type { TeamStatus } from '../../src-shared/types.js'
import type { ProjectContext } from '../core/paths/context.js'
import { TEAM_DIRNAME } from '../core/paths/team-agent-paths.js'
import { TeamSyncScheduler, type TeamSyncEvent } from '../core/team/scheduler.js'
import type { ActivityLog } from './activity-log.js'
import { loadAppSettings } from './app-data.js'
import type { ChangeRecorder } from './change-recorder.js'
import { HostError } from './errors.js'
import { resolveTeamSetup } from './team.js'

export interface TeamStateDeps {
  ctx: ProjectContext
  recorder: ChangeRecorder
  activity: ActivityLog
  onStatus: (s: TeamStatus) => void
  pullIntervalMs?: number
}

/** Team sync of one workspace: the scheduler, and the status the Team view shows. */
export class TeamState {
  private scheduler?: TeamSyncScheduler
  private current: TeamStatus = { enabled: false, tokenSet: false, syncing: false }
  private pullRun = 0

  constructor(private readonly deps: TeamStateDeps) {}

  async start(): Promise<void> {
    const setup = resolveTeamSetup(this.deps.ctx)
    const settings = loadAppSettings(this.deps.ctx)
    if (!setup.ok) {
      this.current = {
        enabled: false,
        reason: setup.reason,
        url: settings.teamUrl,
        tokenSet: Boolean(settings.teamToken),
        repo: settings.teamRepo,
        syncing: false,
      }
      return
    }
    this.current = { enabled: true, url: setup.url, repo: setup.repo, tokenSet: true, syncing: false }
    const { recorder } = this.deps
    this.scheduler = new TeamSyncScheduler({
      deps: {
        ...setup.deps,
        // Keep the local version restorable, then attribute the incoming one to the pull.
        beforeOverwrite: async (key) => {
          const rel = `${TEAM_DIRNAME}/${key}`
          await recorder.record('external', [rel])
          recorder.expect(rel, { author: 'team-pull', runId: `pull-${this.pullRun}` })
        },
      },
      pullIntervalMs: this.deps.pullIntervalMs,
      onEvent: (e) => this.onSyncEvent(e),
    })
    await this.scheduler.start()
  }

  private onSyncEvent(e: TeamSyncEvent) {
    if (e.type === 'syncing') {
      this.pullRun = Date.now()
      this.current = { ...this.current, syncing: true }
    }
    if (e.type === 'synced') {
      this.current = {
        ...this.current,
        syncing: false,
        lastError: undefined,
        lastSync: { at: e.at, pulled: e.pulled, pushed: e.pushed, skipped: e.skipped },
      }
    }
    if (e.type === 'error') this.current = { ...this.current, syncing: false, lastError: e.error }
    this.deps.activity.sync(e)
    this.deps.onStatus(this.current)
  }

  status(): TeamStatus {
    return this.current
  }

  async syncNow(): Promise<TeamStatus> {
    if (!this.scheduler)
      throw new HostError('TEAM_OFF', this.current.reason ?? 'Team sync is not configured.')
    await this.scheduler.syncNow()
    return this.current
  }

  async stop(): Promise<void> {
    await this.scheduler?.stop()
  }
}
