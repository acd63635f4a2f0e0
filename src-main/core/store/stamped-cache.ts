import { isMissing, messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import { readFileSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from './atomic-write.js'

type Entry<T> = [mtimeMs: number, size: number, value: T]

const RACY_MS = 3000

/**
 * Whether a file changed too recently for its stamps to tell a later edit apart: on a file system
 * with coarse timestamps (HFS+: 1 s, FAT: 2 s) a second same-size edit within that window would
 * keep the stamp, so what was worked out from it is not kept (git's "racily clean" rule).
 */
export const isRacilyClean = (mtimeMs: number, now = Date.now()): boolean => now - mtimeMs < RACY_MS

/**
 * Values worked out from memory files, kept between runs of a short-lived process (a CLI command,
 * a hook) in one JSON file under Memdir's data dir, so the next run redoes the work only for the
 * files that changed. A value is used only while its file keeps the mtime and size it was worked
 * out at. A missing, unreadable or other-version cache file is an empty cache, and losing it
 * costs one run the work, nothing else: it is written without fsync, and a failed write is not an
 * error.
 */
export class StampedCache<T> {
  /** Values set or checked in this process. */
  private entries = new Map<string, Entry<T>>()
  /**
   * The file's columns as read: a value is checked when it is looked up, so a run that looks at a
   * few of many thousand memories builds and checks only those. Moved into `entries` (checked)
   * before anything needs them all.
   */
  private stored: { index: Map<string, number>; stamps: unknown[]; values: unknown[] } | undefined
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
      const data = JSON.parse(text) as Partial<Record<'v' | 'names' | 'stamps' | 'values' | 'extra', unknown>>
      const { names, stamps, values } = data ?? {}
      if (
        data?.v === this.version &&
        Array.isArray(names) &&
        Array.isArray(stamps) &&
        Array.isArray(values) &&
        stamps.length === 2 * names.length &&
        values.length === names.length
      ) {
        const index = new Map<string, number>()
        names.forEach((name, i) => typeof name === 'string' && index.set(name, i))
        this.stored = { index, stamps, values }
        this.extra = data.extra
      }
    } catch (e) {
      rethrowUnless(e instanceof SyntaxError, e)
      // not JSON: an empty cache
    }
  }

  /** Every stored entry of this version's shape moved into `entries`, for what needs them all. */
  private all(): Map<string, Entry<T>> {
    const s = this.stored
    this.stored = undefined
    if (s)
      for (const [name, i] of s.index) {
        const [mtimeMs, size, value] = [s.stamps[2 * i], s.stamps[2 * i + 1], s.values[i]]
        if (
          !this.entries.has(name) &&
          typeof mtimeMs === 'number' &&
          typeof size === 'number' &&
          this.isValue(value)
        )
          this.entries.set(name, [mtimeMs, size, value])
      }
    return this.entries
  }

  /** The value for a file, when the file has the mtime and size it had when the value was set. */
  get(filename: string, mtimeMs: number, size: number | undefined): T | undefined {
    const e = this.entries.get(filename)
    if (e) return e[0] === mtimeMs && e[1] === size ? e[2] : undefined
    const s = this.stored
    const i = s?.index.get(filename)
    if (i === undefined || s!.stamps[2 * i] !== mtimeMs || s!.stamps[2 * i + 1] !== size) return undefined
    const value = s!.values[i]
    return this.isValue(value) ? value : undefined
  }

  /**
   * Keeps a value for a file, unless the file changed in the last few seconds (isRacilyClean): such
   * a file is worked out again next run. Says whether the value was kept.
   */
  set(filename: string, mtimeMs: number, size: number, value: T, now = Date.now()): boolean {
    if (isRacilyClean(mtimeMs, now)) return false
    this.entries.set(filename, [mtimeMs, size, value])
    this.dirty = true
    return true
  }

  /** Every kept value with its file name, stamps unchecked (to build an index over them). */
  *values(): IterableIterator<[filename: string, value: T]> {
    for (const [f, e] of this.all()) yield [f, e[2]]
  }

  /** How many files have a value kept. */
  get size(): number {
    return this.all().size
  }

  /** Whether a value is kept for the file, whatever its stamps. */
  has(filename: string): boolean {
    return this.all().has(filename)
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
   * deleted file, or one the caller no longer lists, drops out.
   */
  async save(keep: Iterable<string>): Promise<void> {
    // Most saves change nothing (a process asking again about the same files): found with lookups,
    // without copying or checking the entries.
    const files = Array.isArray(keep) ? (keep as readonly string[]) : [...keep]
    if (!this.dirty && !this.entries.size && this.stored) {
      let present = 0
      for (const f of files) if (this.stored.index.has(f)) present++
      if (present === this.stored.index.size) return
    }
    const entries = this.all()
    let present = 0
    for (const f of files) if (entries.has(f)) present++
    if (!this.dirty && present === entries.size) return
    if (present < entries.size) {
      const wanted = new Set(files)
      this.entries = new Map([...entries].filter(([f]) => wanted.has(f)))
    }
    this.dirty = false
    const names = [...this.entries.keys()]
    const stamps: number[] = []
    const values: T[] = []
    for (const [mtimeMs, size, value] of this.entries.values()) {
      stamps.push(mtimeMs, size)
      values.push(value)
    }
    const text = JSON.stringify({ v: this.version, names, stamps, values, extra: this.extra })
    try {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 })
      await writeFileAtomic(this.file, text, { mode: 0o600, durable: false })
    } catch (e) {
      // See the class comment: the next run redoes what this one could not keep.
      process.emitWarning(`memdir: cache ${this.file} not saved (${messageOf(e)})`)
    }
  }
}
