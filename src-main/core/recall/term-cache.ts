import type { MemoryHeader } from '../store/memory-header.js'
import { StampedCache } from '../store/stamped-cache.js'
import type { DocTerms, IndexedTerms, TermSource } from './term-source.js'
import { TermPostings } from './term-postings.js'
import { seedSynonymTable, synonymTable, termsVersion } from './terms.js'

const isStored = (v: unknown): v is DocTerms =>
  Array.isArray(v) &&
  v.length === 4 &&
  typeof v[0] === 'number' &&
  typeof v[1] === 'string' &&
  typeof v[2] === 'string' &&
  typeof v[3] === 'string'

/**
 * The offline ranker's terms of each memory for a long-running process (the app, `memdir watch`):
 * kept in memory with which memories have each term (TermPostings), so a prompt's ranking reads
 * the query terms' lists, and in one file per memory dir between launches, so a launch re-reads
 * and re-tokenises only the memories that changed (see StampedCache). Terms of another vocabulary
 * or stemmer (termsVersion) are not used. A short-lived process uses TermIndex instead.
 */
export class TermCache implements TermSource {
  private readonly cache: StampedCache<DocTerms>
  private lists: TermPostings | undefined
  /** Bumped by whatever changes what a lookup or the postings answer. */
  private changes = 0
  private memo: { of: readonly MemoryHeader[]; changes: number; value: unknown } | undefined
  private saved: { of: readonly MemoryHeader[]; changes: number } | undefined

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
    return this.cache.get(header.filename, header.mtimeMs, header.size)
  }

  /** Terms read from the file at the mtime and size the header has. */
  set(header: MemoryHeader & { size: number }, terms: DocTerms): void {
    const kept = this.cache.set(header.filename, header.mtimeMs, header.size, terms)
    if (!kept) return
    this.changes++
    this.lists?.add(header.filename, terms)
  }

  /**
   * What `build` makes of these candidates, kept while they are the same list and
   * nothing here changed: the app ranks every prompt against the index's one list until a file
   * changes, and its per-memory lookups need not run again. Kept only when `build` took every
   * memory's terms from here (`fromCache`): terms it had to read, of a file too new to cache, are
   * read again next time.
   */
  async prepared<T>(
    candidates: readonly MemoryHeader[],
    build: () => Promise<{ value: T; fromCache: boolean }>,
  ): Promise<T> {
    const memo = this.memo
    if (memo && memo.of === candidates && memo.changes === this.changes) return memo.value as T
    // The postings are (re)built first: built inside `build`, they would count as a change, and
    // what it made would not be kept (the next prompt would build it all again).
    this.postingLists()
    const changes = this.changes
    const { value, fromCache } = await build()
    if (fromCache && changes === this.changes) this.memo = { of: candidates, changes, value }
    return value
  }

  /**
   * The postings of the cached terms, kept while this process runs. They answer only for memories
   * get() returns terms for: a memory whose file changed since has old entries there.
   */
  indexed(): IndexedTerms {
    const lists = this.postingLists()
    return {
      idCount: lists.idCount,
      idOf: (header) => (this.get(header) ? (lists.idOf(header.filename) ?? -1) : -1),
      lengthOf: (id) => lists.lengthOf(id),
      list: (term) => lists.list(term),
    }
  }

  /** The postings, built from the cached terms when there are none yet or old ids outweigh live ones. */
  private postingLists(): TermPostings {
    if (!this.lists || this.lists.wasteful) {
      this.lists = new TermPostings()
      for (const [f, v] of this.cache.values()) this.lists.add(f, v)
      this.changes++
    }
    return this.lists
  }

  /** Writes the cache when it changed, keeping only the memories of the scan recall ranked from. */
  async save(scanned: readonly MemoryHeader[]): Promise<void> {
    // The same list saved again with nothing set since: there is nothing to write or drop.
    if (this.saved?.of === scanned && this.saved.changes === this.changes) return
    if (!Array.isArray(this.cache.shared)) this.cache.shared = [...synonymTable()]
    const before = this.cache.size
    await this.cache.save(scanned.map((h) => h.filename))
    // A memory the save dropped (deleted, or no longer scanned) leaves the index too.
    const dropFromLists = !!this.lists && this.lists.size !== this.cache.size
    if (dropFromLists) this.lists!.retain((f) => this.cache.has(f))
    if (dropFromLists || this.cache.size !== before) this.changes++
    this.saved = { of: scanned, changes: this.changes }
  }
}
