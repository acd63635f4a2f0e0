import type { MemoryFormat } from './frontmatter.js'
import { FRONTMATTER_MAX_LINES, type MemoryHeader } from './memory-header.js'
import type { MemoryType } from './memory-types.js'
import { listWithDirStamps, stillListed } from './dir-listing.js'
import { StampedCache } from './stamped-cache.js'

type Stored = [name: string | null, description: string | null, type: string | null, format: string | null]

const isStored = (v: unknown): v is Stored =>
  Array.isArray(v) && v.length === 4 && v.every((s) => s === null || typeof s === 'string')

/** Bump when a header would be read differently (2: UTF-16 files are read as text, text-encoding.ts). */
const VERSION = `2-${FRONTMATTER_MAX_LINES}`

export type HeaderFields = Pick<MemoryHeader, 'name' | 'description' | 'type' | 'format'>

/**
 * Each memory's header (name, description, type, format) kept between runs of a CLI command or
 * hook, so a scan stats the files and reads only those that changed (see StampedCache).
 */
export class HeaderCache {
  private readonly cache: StampedCache<Stored>

  constructor(
    readonly file: string,
    opts: { blocking?: boolean } = {},
  ) {
    this.cache = new StampedCache(file, VERSION, isStored, opts.blocking)
  }

  readySync(): void {
    this.cache.readySync()
  }

  get(filename: string, mtimeMs: number, size: number): HeaderFields | undefined {
    const s = this.cache.get(filename, mtimeMs, size)
    if (!s) return undefined
    const fields: HeaderFields = { description: s[1] }
    if (s[0] !== null) fields.name = s[0]
    if (s[2] !== null) fields.type = s[2] as MemoryType
    if (s[3] !== null) fields.format = s[3] as MemoryFormat
    return fields
  }

  set(header: MemoryHeader & { size: number }): void {
    const { filename, mtimeMs, size, name, description, type, format } = header
    this.cache.set(filename, mtimeMs, size, [name ?? null, description, type ?? null, format ?? null])
  }

  /**
   * The dir's memory files: the listing kept with the headers while the dirs' mtimes say nothing
   * was added or removed, else a new one (kept for the next run).
   */
  listing(memoryDir: string): string[] {
    this.readySync()
    const kept = stillListed(memoryDir, this.cache.shared)
    if (kept) return (this.listed = kept)
    const { files, dirs } = listWithDirStamps(memoryDir)
    if (dirs || this.cache.shared !== undefined) this.cache.shared = dirs ? { dirs, files } : undefined
    return (this.listed = files)
  }

  /** The last listing (see save). */
  private listed: readonly string[] | undefined

  /**
   * Writes the cache when it changed, keeping the headers of every file the scan listed: a scan of
   * the newest 200 (`memdir list`) must not drop what a scan of all (a prompt hook) keeps, or
   * the next one reads every other header again. A deleted file drops out.
   */
  save(scanned: readonly MemoryHeader[]): Promise<void> {
    return this.cache.save(this.listed ?? scanned.map((h) => h.filename))
  }
}
