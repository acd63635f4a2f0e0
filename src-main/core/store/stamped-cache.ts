import { isMissing, messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import { readFileSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from './atomic-write.js'

type Entry<T> = [mtimeMs: number, size: number, value: T]

const RACY_MS = 3000

/**
 * Values worked out from memory files, kept between runs of a short-lived process (a CLI command,
 * a hook) in one JSON file under Memdir's data dir, so the next run redoes the work only for the
 * files that changed. A value is used only while its file keeps the mtime and size it was worked
 * out at. A missing, unreadable or other-version cache file is an empty cache, and losing it
 * costs one run the work, nothing else: it is written without fsync, and a failed write is not an
 * error.
 */
export class StampedCache<T> {
  private entries = new Map<string, Entry<T>>()
  private extra: unknown
  private loading: Promise<void> | undefined
  private dirty = false

  constructor(
    readonly file: string,
    private readonly version: string,
    /** Whether a stored value has the shape this version writes. */
    private readonly isValue: (v: unknown) => v is T,
    /** Read blocking: a short-lived process (a CLI command, a hook) has nothing else to do meanwhile. */
    private readonly blocking = false,
  ) {}

  /** Reads the file, once: blocking for a short-lived process, else not. */
  ready(): Promise<void> {
    if (!this.loading && this.blocking) this.readySync()
    this.loading ??= readFile(this.file, 'utf8').then(
      (text) => this.take(text),
      (e: unknown) => this.unreadable(e),
    )
    return this.loading
  }

  /** Reads the file, once, blocking: for a scan running on the calling thread. */
  readySync(): void {
    if (this.loading) return
    try {
      this.take(readFileSync(this.file, 'utf8'))
    } catch (e) {
      this.unreadable(e)
    }
    this.loading = Promise.resolve()
  }

  /** Missing: an empty cache. Unreadable: an empty cache too (it is disposable), and said once. */
  private unreadable(e: unknown): void {
    if (!isMissing(e))
      process.emitWarning(`memdir: cache ${this.file} is not readable (${messageOf(e)}); working without it`)
  }

  private take(text: string): void {
    try {
      const data = JSON.parse(text) as { v?: unknown; files?: unknown; extra?: unknown }
      if (data?.v === this.version && data.files && typeof data.files === 'object') {
        // Checked once here, so a lookup (per memory, per prompt) only compares stamps.
        this.entries = new Map(
          Object.entries(data.files as Record<string, unknown>).filter((e): e is [string, Entry<T>] => {
            const v = e[1]
            return (
              Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'number' && this.isValue(v[2])
            )
          }),
        )
        this.extra = data.extra
      }
    } catch (e) {
      rethrowUnless(e instanceof SyntaxError, e)
      // not JSON: an empty cache
    }
  }

  /** The value for a file, when the file has the mtime and size it had when the value was set. */
  get(filename: string, mtimeMs: number, size: number | undefined): T | undefined {
    const e = this.entries.get(filename)
    return e && e[0] === mtimeMs && e[1] === size ? e[2] : undefined
  }

  /**
   * Keeps a value for a file, unless the file changed in the last few seconds: on a file system
   * with coarse timestamps (HFS+: 1 s, FAT: 2 s) a second same-size edit within that window would
   * keep the stamp, so such a file is worked out again next run (git's "racily clean" rule).
   * Says whether the value was kept.
   */
  set(filename: string, mtimeMs: number, size: number, value: T, now = Date.now()): boolean {
    if (now - mtimeMs < RACY_MS) return false
    this.entries.set(filename, [mtimeMs, size, value])
    this.dirty = true
    return true
  }

  /** Every kept value with its file name, stamps unchecked (to build an index over them). */
  *values(): IterableIterator<[filename: string, value: T]> {
    for (const [f, e] of this.entries) yield [f, e[2]]
  }

  /** How many files have a value kept. */
  get size(): number {
    return this.entries.size
  }

  /** Whether a value is kept for the file, whatever its stamps. */
  has(filename: string): boolean {
    return this.entries.has(filename)
  }

  /** One more value kept with the entries, of the same version (not tied to a file). */
  get shared(): unknown {
    return this.extra
  }

  set shared(value: unknown) {
    this.extra = value
    this.dirty = true
  }

  /**
   * Writes the file when it changed, keeping only the files given (those the run looked at): a
   * deleted file, or one no longer among the newest scanned, drops out.
   */
  async save(keep: Iterable<string>): Promise<void> {
    // Most saves change nothing (a process asking again about the same files): found with lookups,
    // without copying the entries.
    const files = Array.isArray(keep) ? (keep as readonly string[]) : [...keep]
    let present = 0
    for (const f of files) if (this.entries.has(f)) present++
    if (!this.dirty && present === this.entries.size) return
    if (present < this.entries.size) {
      const wanted = new Set(files)
      this.entries = new Map([...this.entries].filter(([f]) => wanted.has(f)))
    }
    this.dirty = false
    const text = JSON.stringify({
      v: this.version,
      files: Object.fromEntries(this.entries),
      extra: this.extra,
    })
    try {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 })
      await writeFileAtomic(this.file, text, { mode: 0o600, durable: false })
    } catch (e) {
      // See the class comment: the next run redoes what this one could not keep.
      process.emitWarning(`memdir: cache ${this.file} not saved (${messageOf(e)})`)
    }
  }
}
