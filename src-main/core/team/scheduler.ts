import { mkdir } from 'node:fs/promises'
import { watch, type FSWatcher } from 'chokidar'
import { TeamApiError } from './api-client.js'
import type { SkippedEntry } from './local-entries.js'
import { exclusiveSync, pullTeamMemory, pushTeamMemory, type SyncConflict, type SyncDeps } from './sync.js'

export type SyncMode = 'pull' | 'push' | 'sync'

export type TeamSyncEvent =
  | { type: 'syncing'; mode: SyncMode; reason: string }
  | {
      type: 'synced'
      mode: SyncMode
      pulled: string[]
      pushed: string[]
      skipped: SkippedEntry[]
      /** Keys both sides changed: the server's version is on disk, the local one in history. */
      conflicts: SyncConflict[]
      at: number
    }
  | { type: 'conflict'; conflicts: number }
  | { type: 'error'; mode: SyncMode; error: string; permanent: boolean; retryInMs?: number }

export interface SchedulerOptions {
  deps: SyncDeps
  pullIntervalMs?: number
  debounceMs?: number
  /** First retry delay after a transient failure; doubles up to the pull interval. */
  retryBaseMs?: number
  onEvent?: (e: TeamSyncEvent) => void
}

/**
 * Pull on start and every N minutes; push (debounced) after local changes in team/; "sync now"
 * on demand. One operation at a time. Transient failures retry later; permanent ones stop pushes
 * until a restart or a file deletion.
 */
export class TeamSyncScheduler {
  private watcher?: FSWatcher
  private interval?: NodeJS.Timeout
  private debounce?: NodeJS.Timeout
  private retry?: NodeJS.Timeout
  private retryDelay: number
  private chain: Promise<unknown> = Promise.resolve()
  private pushing = false
  private pushWanted = false
  private pushSuppressed = false
  private stopped = false

  constructor(private readonly opts: SchedulerOptions) {
    this.retryDelay = opts.retryBaseMs ?? 30_000
  }

  private emit(e: TeamSyncEvent) {
    this.opts.onEvent?.(e)
  }

  async start(): Promise<void> {
    await mkdir(this.opts.deps.teamDir, { recursive: true })
    this.watcher = watch(this.opts.deps.teamDir, {
      ignoreInitial: true,
      ignored: (p) => /(^|[\\/])\.[^\\/]*\.tmp$/.test(p),
    })
    this.watcher.on('add', () => this.schedulePush())
    this.watcher.on('change', () => this.schedulePush())
    this.watcher.on('unlink', () => {
      this.pushSuppressed = false
    })
    await new Promise<void>((r) => this.watcher!.once('ready', () => r()))
    this.interval = setInterval(
      () => void this.run('pull', 'interval'),
      this.opts.pullIntervalMs ?? 5 * 60_000,
    )
    await this.run('sync', 'start')
  }

  /** The manual "Sync now": pull then push, whatever the timers say. */
  syncNow(): Promise<void> {
    this.pushSuppressed = false
    return this.run('sync', 'manual')
  }

  private schedulePush() {
    if (this.stopped) return
    clearTimeout(this.debounce)
    this.debounce = setTimeout(() => {
      if (this.pushing)
        this.pushWanted = true // re-armed after the running push
      else void this.run('push', 'local change')
    }, this.opts.debounceMs ?? 2000)
  }

  private run(mode: SyncMode, reason: string): Promise<void> {
    const next = this.chain.then(() => this.runNow(mode, reason))
    this.chain = next.catch(() => {})
    return next
  }

  private async runNow(mode: SyncMode, reason: string): Promise<void> {
    if (this.stopped) return
    if (mode === 'push' && this.pushSuppressed) return
    this.emit({ type: 'syncing', mode, reason })
    const deps = this.opts.deps
    this.pushing = mode !== 'pull'
    try {
      const { pull, push } = await exclusiveSync(deps, async () => {
        const pull = mode === 'push' ? undefined : await pullTeamMemory(deps)
        const push = mode === 'pull' || this.pushSuppressed ? undefined : await pushTeamMemory(deps)
        return { pull, push }
      })
      if (push?.conflicts) this.emit({ type: 'conflict', conflicts: push.conflicts })
      this.emit({
        type: 'synced',
        mode,
        pulled: pull?.pulled ?? [],
        pushed: push?.pushed ?? [],
        skipped: [...(pull?.skipped ?? []), ...(push?.skipped ?? [])],
        conflicts: pull?.conflicts ?? [],
        at: Date.now(),
      })
      this.retryDelay = this.opts.retryBaseMs ?? 30_000
    } catch (e) {
      const permanent = e instanceof TeamApiError && e.permanent
      if (permanent) this.pushSuppressed = true
      const retryInMs = permanent ? undefined : this.retryDelay
      this.emit({ type: 'error', mode, error: (e as Error).message, permanent, retryInMs })
      if (retryInMs !== undefined && !this.stopped) {
        clearTimeout(this.retry)
        this.retry = setTimeout(() => void this.run(mode === 'pull' ? 'pull' : 'sync', 'retry'), retryInMs)
        this.retryDelay = Math.min(this.retryDelay * 2, this.opts.pullIntervalMs ?? 5 * 60_000)
      }
    } finally {
      this.pushing = false
      if (this.pushWanted) {
        this.pushWanted = false
        this.schedulePush()
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.interval)
    clearTimeout(this.debounce)
    clearTimeout(this.retry)
    await this.watcher?.close()
    await this.chain
  }
}
