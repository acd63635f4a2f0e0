import { type DirWatch, isWriteScratch, watchDir } from '../store/dir-watch.js'
import { messageOf } from '../../../src-shared/errors.js'
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
      /** Deleted on the server: the unchanged local copies were removed. */
      removed: string[]
      pushed: string[]
      skipped: SkippedEntry[]
      /** Keys both sides changed: the server's version is on disk, the local one in history. */
      conflicts: SyncConflict[]
      at: number
    }
  | { type: 'conflict'; conflicts: number }
  | {
      type: 'error'
      mode: SyncMode
      error: string
      permanent: boolean
      /** A transient failure: the sync runs again after this long. */
      retryInMs?: number
      /** Consecutive failures; timed syncs wait (doubling) before they try again. */
      failures: number
    }

/** The longest Retry-After the scheduler honours (a day): a larger one waits this long. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60_000

export interface SchedulerOptions {
  deps: SyncDeps
  pullIntervalMs?: number
  debounceMs?: number
  /** First wait after a failure; it doubles with every failure in a row, up to `maxBackoffMs`. */
  retryBaseMs?: number
  /** The longest wait after failures (default 30 minutes). */
  maxBackoffMs?: number
  random?: () => number
  onEvent?: (e: TeamSyncEvent) => void
}

/**
 * Pull on start and every N minutes; push (debounced) after local changes in team/; "sync now"
 * on demand. One operation at a time. After a failure the timed syncs back off (doubling, with
 * jitter, up to `maxBackoffMs`); a transient failure is retried once the wait is over; a permanent
 * one also stops pushes until a restart, a file deletion or "Sync now".
 */
export class TeamSyncScheduler {
  private watcher?: DirWatch
  private interval?: NodeJS.Timeout
  private debounce?: NodeJS.Timeout
  private retry?: NodeJS.Timeout
  private failures = 0
  /** Timed syncs before this time are skipped: the scheduler is backing off after failures. */
  private resumeAt = 0
  private chain: Promise<unknown> = Promise.resolve()
  private pushing = false
  private pushWanted = false
  private pushSuppressed = false
  private stopped = false

  constructor(private readonly opts: SchedulerOptions) {}

  /** The wait after `failures` failures in a row: base × 2^(n−1), capped, plus up to 25 % jitter. */
  private backoffMs(failures: number): number {
    const base = Math.min(
      (this.opts.retryBaseMs ?? 30_000) * 2 ** (failures - 1),
      this.opts.maxBackoffMs ?? 30 * 60_000,
    )
    return Math.round(base + base * 0.25 * (this.opts.random ?? Math.random)())
  }

  private emit(e: TeamSyncEvent) {
    this.opts.onEvent?.(e)
  }

  async start(): Promise<void> {
    // A team dir that does not exist yet is followed from when a pull or the user creates it.
    this.watcher = await watchDir(
      this.opts.deps.teamDir,
      { ignoreInitial: true, ignored: isWriteScratch },
      (w, late) => {
        w.on('add', () => this.schedulePush())
        w.on('change', () => this.schedulePush())
        w.on('unlink', () => {
          this.pushSuppressed = false
        })
        if (late) this.schedulePush()
      },
    )
    this.interval = setInterval(
      () => void this.run('pull', 'interval'),
      this.opts.pullIntervalMs ?? 5 * 60_000,
    )
    await this.run('sync', 'start')
  }

  /** The manual "Sync now": pull then push, whatever the timers say. */
  syncNow(): Promise<void> {
    this.pushSuppressed = false
    return this.run('sync', 'manual', true)
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

  private run(mode: SyncMode, reason: string, now = false): Promise<void> {
    const next = this.chain.then(() => this.runNow(mode, reason, now))
    this.chain = next.catch(() => {})
    return next
  }

  private async runNow(mode: SyncMode, reason: string, now: boolean): Promise<void> {
    if (this.stopped) return
    if (mode === 'push' && this.pushSuppressed) return
    if (!now && Date.now() < this.resumeAt) return // backing off after failures
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
        removed: pull?.removed ?? [],
        pushed: push?.pushed ?? [],
        skipped: [...(pull?.skipped ?? []), ...(push?.skipped ?? [])],
        conflicts: pull?.conflicts ?? [],
        at: Date.now(),
      })
      this.failures = 0
      this.resumeAt = 0
    } catch (e) {
      const permanent = e instanceof TeamApiError && e.permanent
      if (permanent) this.pushSuppressed = true
      this.failures++
      // Never back sooner than a busy server asked (capped: a timer cannot wait past ~24 days).
      const asked = e instanceof TeamApiError ? Math.min(e.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS) : 0
      const waitMs = Math.max(this.backoffMs(this.failures), asked)
      this.resumeAt = Date.now() + waitMs
      const retryInMs = permanent ? undefined : waitMs
      this.emit({ type: 'error', mode, error: messageOf(e), permanent, retryInMs, failures: this.failures })
      if (retryInMs !== undefined && !this.stopped) {
        clearTimeout(this.retry)
        this.retry = setTimeout(
          () => void this.run(mode === 'pull' ? 'pull' : 'sync', 'retry', true),
          retryInMs,
        )
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
