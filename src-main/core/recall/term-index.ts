import type { MemoryHeader } from '../store/memory-header.js'
import { isRacilyClean } from '../store/stamped-cache.js'
import { type IndexedDoc, PostingsFile } from './postings-file.js'
import type { DocTerms, IndexedTerms, TermSource } from './term-source.js'
import { seedSynonymTable, synonymTable, termsVersion } from './terms.js'

/**
 * Memories the file may fail to answer for (changed, added or deleted since it was written) before
 * a run writes it again: until then each run reads those few files' heads itself.
 */
const staleAllowed = (memories: number) => 16 + Math.floor(memories / 100)

/**
 * The offline ranker's terms for a short-lived process (a prompt hook, `memdir recall`): one
 * PostingsFile per memory dir, from which a prompt reads only its own terms' lists and each
 * memory's length, instead of every memory's terms. Memories the file does not answer for as they
 * are now are read from their files; the file is written again when there are too many of them.
 */
export class TermIndex implements TermSource {
  private file: PostingsFile | undefined
  private loaded = false
  /** Terms this run read, by file name. */
  private readonly fresh = new Map<string, IndexedDoc>()

  constructor(readonly path: string) {}

  ready(): Promise<void> {
    if (!this.loaded) {
      this.loaded = true
      this.file = PostingsFile.load(this.path, termsVersion())
      if (this.file) seedSynonymTable(this.file.synonyms())
    }
    return Promise.resolve()
  }

  get(header: MemoryHeader): DocTerms | undefined {
    const d = this.fresh.get(header.filename)
    return d && d.mtimeMs === header.mtimeMs && d.size === header.size ? d.terms : undefined
  }

  set(header: MemoryHeader & { size: number }, terms: DocTerms): void {
    if (isRacilyClean(header.mtimeMs)) return
    this.fresh.set(header.filename, {
      filename: header.filename,
      mtimeMs: header.mtimeMs,
      size: header.size,
      terms,
    })
  }

  indexed(): IndexedTerms | undefined {
    const file = this.file
    if (!file) return undefined
    return {
      idCount: file.idCount,
      idOf: (h) => file.idOf(h.filename, h.mtimeMs, h.size),
      lengthOf: (id) => file.lengthOf(id),
      list: (term) => file.list(term),
    }
  }

  async prepared<T>(_: readonly MemoryHeader[], build: () => Promise<{ value: T }>): Promise<T> {
    return (await build()).value
  }

  /**
   * Writes the file again when it is missing or fails to answer for too many memories of the scan:
   * those this run had to read (new, or changed since), and those it holds that are gone.
   */
  async save(scanned: readonly MemoryHeader[]): Promise<void> {
    await this.ready()
    const file = this.file
    let held = 0
    if (file) for (const h of scanned) if (file.has(h.filename)) held++
    const gone = file ? file.idCount - held : 0
    if (!file || this.fresh.size + gone > staleAllowed(scanned.length)) {
      const docs: IndexedDoc[] = []
      for (const h of scanned) {
        const terms = this.get(h) ?? this.kept(h)
        if (terms && h.size !== undefined)
          docs.push({ filename: h.filename, mtimeMs: h.mtimeMs, size: h.size, terms })
      }
      await PostingsFile.write(this.path, termsVersion(), docs, [...synonymTable()])
    }
    // A ranking after this one loads the file again (this one's or another process's).
    file?.close()
    this.file = undefined
    this.loaded = false
    this.fresh.clear()
  }

  /** The file's terms of a memory it still answers for. */
  private kept(h: MemoryHeader): DocTerms | undefined {
    const id = this.file?.idOf(h.filename, h.mtimeMs, h.size) ?? -1
    return id >= 0 ? this.file!.termsOf(id) : undefined
  }
}
