import {
  isMemoryFileName,
  type MemoryHeader,
  newestFirst,
  readMemoryHeaders,
  scanMemoryFiles,
  type Scanner,
} from './scan.js'
import { SerialQueue } from './serial-queue.js'

/**
 * An in-memory index of a memory dir's headers. Built by one full scan, then kept current by
 * `update(changedPaths)` from the watcher, so a repeated recall preparation costs O(changed files).
 */
export class MemoryIndex {
  private readonly headers = new Map<string, MemoryHeader>()
  private ready?: Promise<void>
  /** The headers newest first, until the next update (the app lists them for every prompt). */
  private sorted?: MemoryHeader[]
  /** Updates apply in the order they were asked for (an older read finishing last undid a newer one). */
  private readonly updates = new SerialQueue()

  constructor(
    readonly memoryDir: string,
    private readonly scanner?: Scanner,
  ) {}

  /** Full scan once; later calls return the same promise. */
  load(): Promise<void> {
    this.ready ??= (async () => {
      const all = await scanMemoryFiles(this.memoryDir, { limit: Infinity, scanner: this.scanner })
      for (const h of all) this.headers.set(h.filename, h)
    })()
    return this.ready
  }

  /** A file's mtime and size as the index last read them (once loaded; undefined: not a memory it holds). */
  stamp(relPath: string): { mtimeMs: number; size: number } | undefined {
    const h = this.headers.get(relPath)
    return h?.size === undefined ? undefined : { mtimeMs: h.mtimeMs, size: h.size }
  }

  /** Re-reads just these files (relative paths); a file that is gone is dropped. */
  update(relPaths: Iterable<string>): Promise<void> {
    return this.updates.run(() => this.reread(relPaths))
  }

  private async reread(relPaths: Iterable<string>): Promise<void> {
    await this.load()
    const todo = [...new Set(relPaths)].filter(isMemoryFileName)
    const got = todo.length ? await readMemoryHeaders(this.memoryDir, todo, this.scanner) : []
    if (todo.length) this.sorted = undefined
    todo.forEach((f, i) => {
      const h = got[i]
      if (h) this.headers.set(f, h)
      else this.headers.delete(f)
    })
  }

  get size(): number {
    return this.headers.size
  }

  /**
   * Newest first; `limit` like scanMemoryFiles (default all). All of them is one list until a file
   * changes (the same array: a ranker keeps what it prepared for it), so it is read-only.
   */
  async list(limit = Infinity): Promise<readonly MemoryHeader[]> {
    await this.load()
    this.sorted ??= [...this.headers.values()].sort(newestFirst)
    return limit >= this.sorted.length ? this.sorted : this.sorted.slice(0, limit)
  }
}
