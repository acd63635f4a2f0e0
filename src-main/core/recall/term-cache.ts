import type { MemoryHeader } from '../store/memory-header.js'
import { StampedCache } from '../store/stamped-cache.js'
import { seedSynonymTable, synonymTable, termsVersion } from './terms.js'

/** What the offline ranker needs of one memory: each field's packed terms and their total. */
export interface DocTerms {
  name: string
  description: string
  body: string
  length: number
}

type Stored = [length: number, name: string, description: string, body: string]

const isStored = (v: unknown): v is Stored =>
  Array.isArray(v) &&
  v.length === 4 &&
  typeof v[0] === 'number' &&
  v.slice(1).every((s) => typeof s === 'string')

/**
 * The offline ranker's terms of each memory, kept between runs in one file per memory dir, so a
 * prompt hook re-reads and re-tokenises only the memories that changed (see StampedCache). Terms
 * of another vocabulary or stemmer (termsVersion) are not used.
 */
export class TermCache {
  private readonly cache: StampedCache<Stored>

  constructor(
    readonly file: string,
    opts: { blocking?: boolean } = {},
  ) {
    this.cache = new StampedCache(file, termsVersion(), isStored, opts.blocking)
  }

  /** Loads the file, and the stemmed synonym table kept in it (stemming the vocabulary costs a cold process ms). */
  async ready(): Promise<void> {
    await this.cache.ready()
    const table = this.cache.shared
    if (Array.isArray(table)) seedSynonymTable(table)
  }

  /** The cached terms of a memory, when the file is as it was when they were taken. */
  get(header: MemoryHeader): DocTerms | undefined {
    const s = this.cache.get(header.filename, header.mtimeMs, header.size)
    return s && { length: s[0], name: s[1], description: s[2], body: s[3] }
  }

  /** Terms read from the file at the mtime and size the header has. */
  set(header: MemoryHeader & { size: number }, terms: DocTerms): void {
    this.cache.set(header.filename, header.mtimeMs, header.size, [
      terms.length,
      terms.name,
      terms.description,
      terms.body,
    ])
  }

  /** Writes the cache when it changed, keeping only the memories of the scan recall ranked from. */
  save(scanned: readonly MemoryHeader[]): Promise<void> {
    if (!Array.isArray(this.cache.shared)) this.cache.shared = [...synonymTable()]
    return this.cache.save(scanned.map((h) => h.filename))
  }
}
