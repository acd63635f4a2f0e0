import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from '../store/atomic-write.js'
import type { MemoryHeader } from '../store/memory-header.js'
import { termsVersion } from './terms.js'

/** What the offline ranker needs of one memory: each field's packed terms and their total. */
export interface DocTerms {
  name: string
  description: string
  body: string
  length: number
}

type Entry = [mtimeMs: number, size: number, length: number, name: string, description: string, body: string]

/**
 * The offline ranker's terms of each memory, kept between runs in one file per memory dir, so a
 * prompt hook re-reads and re-tokenises only the memories that changed. An entry is used only
 * while the file keeps the mtime and size it was read at; a missing, unreadable or other-version
 * file is an empty cache. Losing it costs one run the tokenising, nothing else: it is written
 * without fsync, and a failed write is not an error.
 */
export class TermCache {
  private entries = new Map<string, Entry>()
  private loading: Promise<void> | undefined
  private dirty = false

  constructor(readonly file: string) {}

  ready(): Promise<void> {
    this.loading ??= readFile(this.file, 'utf8')
      .then((text) => {
        const data = JSON.parse(text) as { v?: unknown; docs?: unknown }
        if (data?.v === termsVersion() && data.docs && typeof data.docs === 'object')
          this.entries = new Map(Object.entries(data.docs as Record<string, Entry>))
      })
      .catch(() => undefined) // missing or not JSON: an empty cache
    return this.loading
  }

  /** The cached terms of a memory, when the file is as it was when they were taken. */
  get(header: MemoryHeader): DocTerms | undefined {
    const e = this.entries.get(header.filename)
    if (!Array.isArray(e) || e[0] !== header.mtimeMs || e[1] !== header.size || typeof e[5] !== 'string')
      return undefined
    return { length: e[2], name: e[3], description: e[4], body: e[5] }
  }

  /** Terms read from the file at the mtime and size the header has. */
  set(header: MemoryHeader & { size: number }, terms: DocTerms): void {
    this.entries.set(header.filename, [
      header.mtimeMs,
      header.size,
      terms.length,
      terms.name,
      terms.description,
      terms.body,
    ])
    this.dirty = true
  }

  /**
   * Writes the cache when it changed, keeping only the memories given (the scan recall ranked
   * from, including those a session already surfaced); a deleted or no longer scanned file
   * drops out.
   */
  async save(scanned: readonly MemoryHeader[]): Promise<void> {
    const keep = new Set(scanned.map((h) => h.filename))
    const kept = [...this.entries].filter(([f]) => keep.has(f))
    if (!this.dirty && kept.length === this.entries.size) return
    this.entries = new Map(kept)
    this.dirty = false
    const text = JSON.stringify({ v: termsVersion(), docs: Object.fromEntries(this.entries) })
    try {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 })
      await writeFileAtomic(this.file, text, { mode: 0o600, durable: false })
    } catch {
      // see the class comment: the next run recomputes what this one could not keep
    }
  }
}
