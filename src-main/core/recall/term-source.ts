import type { MemoryHeader } from '../store/memory-header.js'

/**
 * What the offline ranker needs of one memory: its terms' total (the length BM25 normalises by)
 * and each field's packed terms (terms.ts packTerms). A tuple, as it is stored: a prompt reads
 * one per memory, and a lookup then allocates nothing.
 */
export type DocTerms = readonly [length: number, name: string, description: string, body: string]

/**
 * Where memories' current terms sit in postings (which memories have a term, how often per field),
 * so a ranking reads its query terms' lists instead of every memory's terms.
 */
export interface IndexedTerms {
  /** Every id is below this. */
  readonly idCount: number
  /** The memory's id, when its terms as the file is now are in the lists; else -1. */
  idOf(header: MemoryHeader): number
  /** The terms' total of an id's memory (the length BM25 normalises by). */
  lengthOf(id: number): number
  /** Flat entries of four: an id whose memory has the term, and its count in name, description, body. */
  list(term: string): ArrayLike<number>
}

/** What the offline ranker keeps memories' terms in between prompts (see TermCache, TermIndex). */
export interface TermSource {
  /** Loads what earlier runs kept (and the stemmed synonym table kept with it). */
  ready(): Promise<void>
  /** The memory's terms when kept for the file as it is now (a memory indexed() answers for may have none). */
  get(header: MemoryHeader): DocTerms | undefined
  /** Terms read from the file at the mtime and size the header has. */
  set(header: MemoryHeader & { size: number }, terms: DocTerms): void
  /** Postings for the memories kept, when this source keeps them. */
  indexed(): IndexedTerms | undefined
  /** What `build` makes of these candidates, reused while nothing changed where this source can tell. */
  prepared<T>(
    candidates: readonly MemoryHeader[],
    build: () => Promise<{ value: T; fromCache: boolean }>,
  ): Promise<T>
  /** Keeps what this run read, for the memories of the scan recall ranked from. */
  save(scanned: readonly MemoryHeader[]): Promise<void>
}
