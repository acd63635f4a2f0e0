import { basename } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import { TranscriptTail } from './transcript-tail.js'
import { mainChain, toMessages, turnEndedAt, type TranscriptMessage } from './transcript.js'

export interface TurnEndedEvent {
  sessionId: string
  transcriptPath: string
  /** uuid of the assistant entry that closed the turn. */
  leafUuid: string
  messages: TranscriptMessage[]
}

export interface SessionWatcherOptions {
  /** Quiet time after the last append before a file is evaluated (writes come in bursts). */
  debounceMs?: number
  onTurnEnded: (e: TurnEndedEvent) => void
  onError?: (e: Error) => void
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
  private watcher?: FSWatcher
  private readonly tails = new Map<string, TranscriptTail>()
  private readonly lastEmitted = new Map<string, string>()
  private readonly timers = new Map<string, NodeJS.Timeout>()

  constructor(
    readonly transcriptDir: string,
    private readonly opts: SessionWatcherOptions,
  ) {}

  async start(): Promise<void> {
    this.watcher = watch(this.transcriptDir, {
      depth: 0,
      ignoreInitial: false,
      ignored: (p, stats) => Boolean(stats?.isFile() && !isMainSessionFile(p)),
    })
    const initial: Promise<void>[] = []
    let ready = false
    this.watcher.on('add', (p) => {
      if (!isMainSessionFile(p)) return
      if (ready) this.schedule(p)
      else initial.push(this.prime(p))
    })
    this.watcher.on('change', (p) => isMainSessionFile(p) && this.schedule(p))
    this.watcher.on('error', (e) => this.opts.onError?.(e as Error))
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()))
    ready = true
    await Promise.all(initial)
  }

  /** Reads a file that existed before start: its current turn end counts as already seen. */
  private async prime(path: string): Promise<void> {
    const tail = this.tailFor(path)
    await tail.readNew().catch(() => [])
    const leaf = turnEndedAt(tail.entries)
    if (leaf) this.lastEmitted.set(path, leaf)
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
    clearTimeout(this.timers.get(path))
    this.timers.set(
      path,
      setTimeout(() => void this.evaluate(path), this.opts.debounceMs ?? 500),
    )
  }

  private async evaluate(path: string): Promise<void> {
    try {
      const tail = this.tailFor(path)
      await tail.readNew()
      const leaf = turnEndedAt(tail.entries)
      if (!leaf || this.lastEmitted.get(path) === leaf) return
      this.lastEmitted.set(path, leaf)
      this.opts.onTurnEnded({
        sessionId: basename(path, '.jsonl'),
        transcriptPath: path,
        leafUuid: leaf,
        messages: toMessages(mainChain(tail.entries)),
      })
    } catch (e) {
      this.opts.onError?.(e as Error)
    }
  }

  async close(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
    await this.watcher?.close()
  }
}
