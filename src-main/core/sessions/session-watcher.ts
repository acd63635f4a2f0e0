import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { orIfMissing } from '../../../src-shared/errors.js'
import { type DirWatch, watchDir } from '../store/dir-watch.js'
import { savedByClient } from './client-memory.js'
import { TranscriptTail } from './transcript-tail.js'
import { mainChain, toMessages, turnState, type TranscriptMessage } from './transcript.js'

export interface TurnEndedEvent {
  sessionId: string
  transcriptPath: string
  /** uuid of the assistant entry that closed the turn. */
  leafUuid: string
  /** Memories the client saved itself in this session (its own extraction is on for it). */
  clientSaved: string[]
  messages: TranscriptMessage[]
}

export interface SessionWatcherOptions {
  /** Quiet time after the last append before a file is evaluated (writes come in bursts). */
  debounceMs?: number
  /**
   * How long a session must stay quiet before an assistant message without a stop reason counts as
   * the end of the turn (streaming clients write the tool_use block of the same message seconds later).
   */
  idleMs?: number
  /**
   * Starts the idle wait (default: a timer of `idleMs`); returns how to cancel it. Tests pass one
   * they fire themselves, so that "quiet long enough" is an event, not a measured delay.
   */
  idleTimer?: (fire: () => void, ms: number) => () => void
  /**
   * A session already there at start whose file changed within this window is followed as new:
   * a turn that ended just before the app started (the first turn of a new session included) is
   * still extracted. Older sessions count as seen. Default 10 minutes.
   */
  catchUpWithinMs?: number
  onTurnEnded: (e: TurnEndedEvent) => void
  onError?: (e: unknown) => void
}

export const DEFAULT_TURN_IDLE_MS = 30_000
export const DEFAULT_CATCH_UP_MS = 10 * 60_000

const defaultIdleTimer = (fire: () => void, ms: number) => {
  const t = setTimeout(fire, ms)
  return () => clearTimeout(t)
}

/** Subagent transcripts (`agent-*.jsonl`) never trigger extraction. */
export function isMainSessionFile(path: string): boolean {
  const name = basename(path)
  return name.endsWith('.jsonl') && !name.startsWith('agent-')
}

/**
 * Watches a project's transcript dir and emits "turn ended" once per closing assistant message
 * of a main conversation. Existing files are read at start so old turns do not fire.
 */
export class SessionWatcher {
  private watcher?: DirWatch
  private readonly tails = new Map<string, TranscriptTail>()
  private readonly lastEmitted = new Map<string, string>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private readonly idleTimers = new Map<string, () => void>()

  constructor(
    readonly transcriptDir: string,
    private readonly opts: SessionWatcherOptions,
  ) {}

  /** A transcript dir that does not exist yet is followed from when it appears: all its sessions are new. */
  async start(): Promise<void> {
    const initial: Promise<void>[] = []
    let ready = false
    this.watcher = await watchDir(
      this.transcriptDir,
      {
        depth: 0,
        ignoreInitial: false,
        ignored: (p, stats) => Boolean(stats?.isFile() && !isMainSessionFile(p)),
      },
      (w, late) => {
        w.on('add', (p) => {
          if (!isMainSessionFile(p)) return
          if (ready || late) this.schedule(p)
          else initial.push(this.prime(p))
        })
        w.on('change', (p) => isMainSessionFile(p) && this.schedule(p))
        w.on('error', (e) => this.opts.onError?.(e))
      },
    )
    ready = true
    await Promise.all(initial)
  }

  /**
   * A file that existed before start: a recent one is evaluated like a new one (the extraction's
   * cursor skips what was already extracted); an older one's current turn end counts as seen.
   */
  private async prime(path: string): Promise<void> {
    const changed = await orIfMissing(
      stat(path).then((s) => s.mtimeMs),
      0,
    )
    if (Date.now() - changed <= (this.opts.catchUpWithinMs ?? DEFAULT_CATCH_UP_MS)) return this.schedule(path)
    const tail = this.tailFor(path)
    await tail.readNew().catch((e: unknown) => this.opts.onError?.(e))
    const s = turnState(tail.entries)
    if (s.state !== 'open') this.lastEmitted.set(path, s.leafUuid)
  }

  private tailFor(path: string): TranscriptTail {
    let t = this.tails.get(path)
    if (!t) {
      t = new TranscriptTail(path)
      this.tails.set(path, t)
    }
    return t
  }

  private schedule(path: string): void {
    this.idleTimers.get(path)?.()
    clearTimeout(this.timers.get(path))
    this.timers.set(
      path,
      setTimeout(() => void this.evaluate(path), this.opts.debounceMs ?? 500),
    )
  }

  private async evaluate(path: string, idle = false): Promise<void> {
    try {
      const tail = this.tailFor(path)
      await tail.readNew()
      const s = turnState(tail.entries)
      if (s.state === 'open' || this.lastEmitted.get(path) === s.leafUuid) return
      if (s.state === 'maybe' && !idle) {
        // Re-armed by any append (schedule clears it): only a quiet session ends the turn.
        const start = this.opts.idleTimer ?? defaultIdleTimer
        this.idleTimers.set(
          path,
          start(() => void this.evaluate(path, true), this.opts.idleMs ?? DEFAULT_TURN_IDLE_MS),
        )
        return
      }
      const leaf = s.leafUuid
      this.lastEmitted.set(path, leaf)
      this.opts.onTurnEnded({
        sessionId: basename(path, '.jsonl'),
        transcriptPath: path,
        leafUuid: leaf,
        clientSaved: savedByClient(tail.entries),
        messages: toMessages(mainChain(tail.entries)),
      })
    } catch (e) {
      this.opts.onError?.(e)
    }
  }

  /**
   * Someone who knows (a Claude Code Stop hook) says a session's turn just ended: evaluate it now,
   * without waiting for the quiet period. Works for a transcript outside the watched dir too.
   */
  async turnEnded(path: string): Promise<void> {
    clearTimeout(this.timers.get(path))
    this.idleTimers.get(path)?.()
    await this.evaluate(path, true)
  }

  async close(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t)
    for (const cancel of this.idleTimers.values()) cancel()
    this.timers.clear()
    this.idleTimers.clear()
    await this.watcher?.close()
  }
}
