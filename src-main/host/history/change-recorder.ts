import { relative, sep } from 'node:path'
import type { HistoryAuthor, HistoryStore } from '../../core/history/history-store.js'
import type { RecordedWrite } from '../../core/store/recorded-write.js'
import { reconcileHistory } from '../../core/history/recorder.js'
import { type DirWatch, isWriteScratch, watchDir } from '../../core/store/dir-watch.js'
import type { MemoryIndex } from '../../core/store/memory-index.js'
import { recordingWrite, type Writer } from './recording.js'

export interface ChangeRecorderDeps {
  memoryDir: string
  index: MemoryIndex
  history: HistoryStore
  /** The files of a flush, after the index and history have them. */
  onChanged: (paths: string[]) => void
  /** History could not record (disk full, app data removed): the change still reaches the UI. */
  onHistoryError: (e: unknown, paths: string[]) => void
}

const toPosix = (p: string) => p.split(sep).join('/')

/**
 * Follows the memory dir. Writers the app knows (the editor, a run's tools, a pull, a restore)
 * write through `writer()`: history records each of their writes exactly, under their name and
 * run, while the path is claimed. Whatever else the watcher sees (Claude Code, an editor, another
 * process) is recorded as `external`. Every change refreshes the index.
 */
export class ChangeRecorder {
  private watcher?: DirWatch
  private pending = new Set<string>()
  private flushTimer?: NodeJS.Timeout
  /** The index update of the last flush (settleIndex waits for it). */
  private indexing?: Promise<void>
  private readonly claims = new Map<string, number>()
  private closed = false
  /** History's catch-up with the dir at opening (see holdUntil): settled, never rejected. */
  private ready: Promise<void> = Promise.resolve()

  constructor(private readonly deps: ChangeRecorderDeps) {}

  /** Follows the memory dir; one that does not exist yet is followed from when it appears. */
  async start(): Promise<void> {
    this.watcher = await watchDir(
      this.deps.memoryDir,
      {
        ignoreInitial: true,
        ignored: (p) => isWriteScratch(p) || /[\\/]\.consolidate-lock$/.test(p),
      },
      (w) => {
        for (const ev of ['add', 'change', 'unlink'] as const)
          w.on(ev, (p) => !this.closed && this.queue(toPosix(relative(this.deps.memoryDir, p))))
      },
    )
  }

  /**
   * Writes, and the records of what the watcher sees, wait until `catchUp` settles: history's
   * comparison of the dir with its log at opening, which a large first opening runs on after the
   * workspace is open. A write before it could be recorded under a baseline of its own result.
   */
  holdUntil(catchUp: Promise<unknown>): void {
    this.ready = catchUp.then(
      () => undefined,
      () => undefined,
    )
  }

  /** Resolves once history has caught up with the dir (holdUntil). */
  caughtUp(): Promise<void> {
    return this.ready
  }

  /** The recorded write of a known writer; its changes are never taken for external ones. */
  writer(who: Writer): RecordedWrite {
    const write = recordingWrite(this.deps.history, this.deps.memoryDir, who, {
      claim: (rel) => this.claims.set(rel, (this.claims.get(rel) ?? 0) + 1),
      release: (rel) => {
        const n = (this.claims.get(rel) ?? 1) - 1
        if (n > 0) this.claims.set(rel, n)
        else this.claims.delete(rel)
        this.queue(rel) // the index follows; history already has it
      },
    })
    return async (absPath, fn) => {
      await this.ready
      return write(absPath, fn)
    }
  }

  /** Records the current content of `paths` now, as `author`'s. */
  async record(author: HistoryAuthor, paths: Iterable<string>, runId?: string): Promise<void> {
    await this.ready
    await reconcileHistory(this.deps.history, this.deps.memoryDir, author, { paths, runId })
  }

  /**
   * Brings the index up to what the watcher has reported so far, without waiting for the next
   * flush (which records history too): an agent asking the app right after a write sees it.
   */
  async settleIndex(): Promise<void> {
    // A flush that has taken its paths out of `pending` may still be reading them.
    await this.indexing?.catch(() => undefined)
    if (this.pending.size) await this.deps.index.update([...this.pending])
  }

  private queue(rel: string) {
    this.pending.add(rel)
    clearTimeout(this.flushTimer)
    this.flushTimer = setTimeout(
      () => void this.flush().catch((e: unknown) => this.deps.onHistoryError(e, [])),
      80,
    )
  }

  private async flush() {
    await this.ready
    if (this.closed) return
    // A path a known writer is writing right now waits: its writer records it.
    const paths = [...this.pending].filter((p) => !this.claims.has(p))
    for (const p of paths) this.pending.delete(p)
    if (!paths.length) return
    this.indexing = this.deps.index.update(paths)
    await this.indexing
    try {
      await this.record('external', paths)
    } catch (e) {
      this.deps.onHistoryError(e, paths)
    }
    this.deps.onChanged(paths)
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.flushTimer)
    await this.watcher?.close()
  }
}
