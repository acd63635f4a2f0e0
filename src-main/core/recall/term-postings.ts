import type { DocTerms } from './term-source.js'
import { fieldCounts } from './terms.js'

/**
 * Which memories have a term, and how often in each field, for a process that ranks many prompts
 * against the same memories (the app, `memdir watch`): the ranker then reads the query terms'
 * lists instead of matching every memory's packed terms per prompt.
 *
 * Each memory gets a new id whenever its terms change; entries of old ids stay in the lists until
 * the next rebuild and are skipped on lookup, so an update never searches the lists.
 */
export class TermPostings {
  private readonly current = new Map<string, number>()
  private owners: string[] = []
  private lengths: number[] = []
  /** Per term, flat entries: id, then its count in the name, description and body. */
  private lists = new Map<string, number[]>()

  /** A memory's terms (see term-cache.ts DocTerms): its total and packed name, description, body. */
  add(filename: string, terms: DocTerms): void {
    const id = this.owners.length
    this.owners.push(filename)
    this.lengths.push(terms[0])
    this.current.set(filename, id)
    for (const [term, c] of fieldCounts([terms[1], terms[2], terms[3]])) {
      const list = this.lists.get(term)
      if (list) list.push(id, c[0], c[1], c[2])
      else this.lists.set(term, [id, c[0], c[1], c[2]])
    }
  }

  /** The terms' total of an id's memory (the length BM25 normalises by). */
  lengthOf(id: number): number {
    return this.lengths[id]!
  }

  /** Every term with its flat entries, as list() gives them. */
  entries(): IterableIterator<[term: string, entries: readonly number[]]> {
    return this.lists.entries()
  }

  /** Keeps only the memories `keep` says yes to. */
  retain(keep: (filename: string) => boolean): void {
    for (const f of [...this.current.keys()]) if (!keep(f)) this.current.delete(f)
  }

  /** Memories indexed now. */
  get size(): number {
    return this.current.size
  }

  /** The id of a memory's terms now (ids of its earlier terms are no longer its). */
  idOf(filename: string): number | undefined {
    return this.current.get(filename)
  }

  /** Ids handed out so far, old ones included: every id is below this. */
  get idCount(): number {
    return this.owners.length
  }

  /**
   * Every id whose terms have the term, old ids included (the caller keeps the ids it asked idOf
   * for): flat entries of four, the id and the term's count in the name, description and body.
   */
  list(term: string): ArrayLike<number> {
    return this.lists.get(term) ?? []
  }

  /** Whether old ids outnumber live ones enough to rebuild (lists only grow between rebuilds). */
  get wasteful(): boolean {
    return this.owners.length > 2 * this.current.size + 1000
  }
}
