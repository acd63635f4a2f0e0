import { relative, sep } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import type { HistoryAuthor, HistoryStore } from '../core/history/history-store.js'
import { reconcileHistory } from '../core/history/recorder.js'
import type { MemoryIndex } from '../core/store/memory-index.js'

export interface Attribution {
  author: HistoryAuthor
  runId?: string
}

export interface ChangeRecorderDeps {
  memoryDir: string
  index: MemoryIndex
  history: HistoryStore
  /** The files of a flush, after the index and history have them. */
  onChanged: (paths: string[]) => void
  /** History could not record (disk full, app data removed): the change still reaches the UI. */
  onHistoryError: (e: Error, paths: string[]) => void
}

const toPosix = (p: string) => p.split(sep).join('/')

/**
 * Follows the memory dir: every change the watcher sees refreshes the index and is recorded in
 * history, attributed to whoever the host said would write it (an expected author for a path, the
 * running agent), else to `external` (Claude Code, an editor).
 */
export class ChangeRecorder {
  private watcher?: FSWatcher
  private pending = new Set<string>()
  private flushTimer?: NodeJS.Timeout
  private activeRun?: Attribution & { runId: string }
  private readonly expected = new Map<string, Attribution>()
  private closed = false

  constructor(private readonly deps: ChangeRecorderDeps) {}

  async start(): Promise<void> {
    this.watcher = watch(this.deps.memoryDir, {
      ignoreInitial: true,
      ignored: (p) => /(^|[\\/])\.[^\\/]+\.tmp$/.test(p) || /[\\/]\.consolidate-lock$/.test(p),
    })
    for (const ev of ['add', 'change', 'unlink'] as const)
      this.watcher.on(ev, (p) => !this.closed && this.queue(p))
    await new Promise<void>((r) => this.watcher!.once('ready', () => r()))
  }

  /** A run (extraction, dream, review approval) is writing: changes seen now are its. */
  beginRun(author: HistoryAuthor, runId: string): void {
    this.activeRun = { author, runId }
  }

  endRun(): void {
    this.activeRun = undefined
  }

  get currentRunId(): string | undefined {
    return this.activeRun?.runId
  }

  /** The next change of `relPath` the watcher sees is this author's (a team pull, say). */
  expect(relPath: string, who: Attribution): void {
    this.expected.set(relPath, who)
  }

  /** Records the current content of `paths` now, as `author`'s. */
  async record(author: HistoryAuthor, paths: Iterable<string>, runId?: string): Promise<void> {
    await reconcileHistory(this.deps.history, this.deps.memoryDir, author, { paths, runId })
  }

  private queue(absPath: string) {
    this.pending.add(toPosix(relative(this.deps.memoryDir, absPath)))
    clearTimeout(this.flushTimer)
    this.flushTimer = setTimeout(
      () => void this.flush().catch((e: Error) => this.deps.onHistoryError(e, [])),
      80,
    )
  }

  private async flush() {
    const paths = [...this.pending]
    this.pending.clear()
    await this.deps.index.update(paths)
    const groups = new Map<string, Attribution & { paths: string[] }>()
    for (const p of paths) {
      const who = this.expected.get(p) ?? this.activeRun ?? { author: 'external' as const }
      this.expected.delete(p)
      const key = `${who.author}\0${who.runId ?? ''}`
      groups.set(key, { ...who, paths: [...(groups.get(key)?.paths ?? []), p] })
    }
    try {
      for (const g of groups.values()) await this.record(g.author, g.paths, g.runId)
    } catch (e) {
      this.deps.onHistoryError(e as Error, paths)
    }
    this.deps.onChanged(paths)
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.flushTimer)
    await this.watcher?.close()
  }
}
