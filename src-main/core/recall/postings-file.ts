import { isFsError, isMissing, messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from '../store/atomic-write.js'
import { shardOf } from '../store/scan-sync.js'
import type { DocTerms } from './term-source.js'
import { TermPostings } from './term-postings.js'

/** Bump when the layout below changes. */
const FORMAT = 2
/** Terms are spread over this many buckets: a prompt parses the few its terms fall in. */
const BUCKETS = 512

/**
 * The file, after one JSON line of `Meta`:
 * - `docs`: `[filenames, mtimes, sizes, lengths]`, one entry per memory id;
 * - `packed`: each id's packed fields `[name, description, body]` (terms.ts packTerms), read only
 *   when the file is written again;
 * - one bucket per term hash: `{ term: [first, count] }`, where the term's postings are in
 *   `postings`: 32-bit little-endian integers, four per memory with the term (its id, then the
 *   term's count in its name, description and body), from integer `first` on.
 * Offsets are bytes after the meta line. Only the meta line and `docs` are parsed on load; a
 * prompt parses its terms' buckets and reads their postings straight into typed arrays.
 */
interface Meta {
  v: string
  docs: [number, number]
  packed: [number, number]
  synonyms: [number, number]
  buckets: [number, number][]
  postings: [number, number]
}

/**
 * Each term's bucket entry and every posting as 32-bit little-endian integers. The loops are small
 * functions of their own: inside `write`, a one-shot process (a hook's first prompt in a project)
 * had V8 optimise all of `write` in the background, ~70 ms on this VM, which the process then
 * waited for at exit.
 */
function layOut(lists: TermPostings): { buckets: Record<string, [number, number]>[]; postings: DataView } {
  const buckets: Record<string, [number, number]>[] = Array.from({ length: BUCKETS }, () => ({}))
  const all = [...lists.entries()]
  let ints = 0
  for (const [term, list] of all) {
    buckets[shardOf(term, BUCKETS)]![term] = [ints / 4, list.length / 4]
    ints += list.length
  }
  const postings = new DataView(new ArrayBuffer(ints * 4))
  let at = 0
  for (const [, list] of all) at = putInts(postings, at, list)
  return { buckets, postings }
}

/** Writes `list` into `view` as little-endian 32-bit integers from byte `at`; returns where it ended. */
function putInts(view: DataView, at: number, list: readonly number[]): number {
  for (let k = 0; k < list.length; k++) view.setInt32(at + 4 * k, list[k]!, true)
  return at + 4 * list.length
}

export interface IndexedDoc {
  filename: string
  mtimeMs: number
  size: number
  terms: DocTerms
}

/** A byte range of the sections, all of which end where the postings do: at the file's end. */
const isSpanWithin =
  (end: number) =>
  (v: unknown): v is [number, number] =>
    Array.isArray(v) &&
    v.length === 2 &&
    Number.isInteger(v[0]) &&
    Number.isInteger(v[1]) &&
    0 <= v[0] &&
    v[0] <= v[1] &&
    v[1] <= end

/** The meta line of this version, every section inside a file of `size` bytes after it. */
function isMeta(v: unknown, version: string, size: number): v is Meta {
  const m = v as Partial<Meta> | null
  const isSpan = isSpanWithin(size)
  return (
    !!m &&
    m.v === version &&
    isSpan(m.docs) &&
    isSpan(m.packed) &&
    isSpan(m.synonyms) &&
    isSpan(m.postings) &&
    m.postings[1] === size &&
    Array.isArray(m.buckets) &&
    m.buckets.length === BUCKETS &&
    m.buckets.every(isSpan)
  )
}

type Docs = [filenames: string[], mtimes: number[], sizes: number[], lengths: number[]]

function isDocs(v: unknown): v is Docs {
  if (!Array.isArray(v) || v.length !== 4 || !v.every(Array.isArray)) return false
  const n = (v[0] as unknown[]).length
  return (
    (v as unknown[][]).every((col) => col.length === n) &&
    (v[0] as unknown[]).every((f) => typeof f === 'string') &&
    (v.slice(1) as unknown[][]).every((col) => col.every((x) => typeof x === 'number'))
  )
}

/** The meta line (JSON) and where the sections start: the byte after it. */
function readMeta(fd: number): { meta: unknown; base: number } {
  let buf = Buffer.alloc(0)
  for (let chunk = 1 << 16; ; chunk *= 2) {
    const more = Buffer.allocUnsafe(chunk)
    const n = readSync(fd, more, 0, chunk, buf.length)
    buf = Buffer.concat([buf, more.subarray(0, n)])
    const nl = buf.indexOf(10)
    if (nl >= 0) return { meta: JSON.parse(buf.toString('utf8', 0, nl)), base: nl + 1 }
    if (n < chunk) throw new SyntaxError('no meta line')
  }
}

function readSpan(fd: number, base: number, [start, end]: [number, number]): string {
  const buf = Buffer.allocUnsafe(end - start)
  const n = readSync(fd, buf, 0, end - start, base + start)
  if (n !== end - start) throw new SyntaxError('file shorter than its meta line says')
  return buf.toString('utf8')
}

const isPacked = (v: unknown): v is [string, string, string] =>
  Array.isArray(v) && v.length === 3 && v.every((s) => typeof s === 'string')

const isPlace = (v: unknown): v is [number, number] =>
  Array.isArray(v) &&
  v.length === 2 &&
  Number.isInteger(v[0]) &&
  Number.isInteger(v[1]) &&
  v[0] >= 0 &&
  v[1] >= 0

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/**
 * A memory dir's offline-ranker terms as one file a short-lived process (a hook, `memdir recall`)
 * loads without parsing every memory's terms: which memories have each term, and how often per
 * field (the same entries as TermPostings), bucketed by term so a prompt reads only its own terms'
 * lists. An entry answers for a memory only while its file keeps the stamps it was read at.
 */
export class PostingsFile {
  private readonly ids = new Map<string, number>()
  private readonly places = new Map<string, [first: number, count: number]>()
  private readonly parsedBuckets = new Set<number>()
  private packedDocs: unknown[] | undefined

  private constructor(
    /** Open until close(): a newer file renamed over this one does not change what is read. */
    private fd: number | undefined,
    private readonly base: number,
    private readonly meta: Meta,
    private readonly docs: Docs,
  ) {
    docs[0].forEach((f, id) => this.ids.set(f, id))
  }

  /** The file as written for `version`; undefined when it is missing, of another version or malformed. */
  static load(file: string, version: string): PostingsFile | undefined {
    let fd: number | undefined
    try {
      fd = openSync(file, 'r')
      const { meta, base } = readMeta(fd)
      // A file cut short (a full disk, a copy interrupted) would answer some terms with nothing,
      // and a section outside the file would be read from nowhere.
      if (!isMeta(meta, `${FORMAT}:${version}`, fstatSync(fd).size - base)) return undefined
      const docs: unknown = JSON.parse(readSpan(fd, base, meta.docs))
      if (!isDocs(docs)) return undefined
      const loaded = new PostingsFile(fd, base, meta, docs)
      fd = undefined
      return loaded
    } catch (e) {
      if (isFsError(e)) {
        if (!isMissing(e))
          process.emitWarning(`memdir: cache ${file} is not readable (${messageOf(e)}); working without it`)
        return undefined
      }
      rethrowUnless(e instanceof SyntaxError, e)
      return undefined // not what this code writes: an empty cache
    } finally {
      if (fd !== undefined) closeSync(fd)
    }
  }

  /** Lets go of the file; lists not read by then are empty. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }

  /** Ids are below this. */
  get idCount(): number {
    return this.docs[0].length
  }

  /** The memory's id when the file has the stamps its terms were read at, else -1. */
  idOf(filename: string, mtimeMs: number, size: number | undefined): number {
    const id = this.ids.get(filename)
    return id !== undefined && this.docs[1][id] === mtimeMs && this.docs[2][id] === size ? id : -1
  }

  /** The memory's terms' total (the length BM25 normalises by). */
  lengthOf(id: number): number {
    return this.docs[3][id]!
  }

  /** The memories it holds, by id. */
  filenames(): readonly string[] {
    return this.docs[0]
  }

  /** Whether the file holds a memory of that name, whatever its stamps. */
  has(filename: string): boolean {
    return this.ids.has(filename)
  }

  /** Flat entries of four: an id with the term, and the term's count in its name, description and body. */
  list(term: string): ArrayLike<number> {
    const bucket = shardOf(term, BUCKETS)
    if (!this.parsedBuckets.has(bucket)) {
      this.parsedBuckets.add(bucket)
      const parsed = this.section(this.meta.buckets[bucket]!)
      if (parsed && typeof parsed === 'object')
        for (const [t, place] of Object.entries(parsed as Record<string, unknown>))
          if (isPlace(place)) this.places.set(t, place)
    }
    const place = this.places.get(term)
    return place ? this.postingsAt(place) : []
  }

  private postingsAt([first, count]: [number, number]): ArrayLike<number> {
    const [start, end] = this.meta.postings
    const at = start + first * 16
    if (this.fd === undefined || at + count * 16 > end) return []
    const list = new Int32Array(count * 4)
    const bytes = new Uint8Array(list.buffer)
    if (readSync(this.fd, bytes, 0, bytes.length, this.base + at) !== bytes.length) return []
    if (!littleEndian) {
      const view = new DataView(list.buffer)
      for (let i = 0; i < list.length; i++) list[i] = view.getInt32(i * 4, true)
    }
    return list
  }

  /** A memory's terms as they were read (parses every memory's terms: for writing the file again). */
  termsOf(id: number): DocTerms | undefined {
    this.packedDocs ??= (() => {
      const all = this.section(this.meta.packed)
      return Array.isArray(all) && all.length === this.idCount ? all : []
    })()
    const p = this.packedDocs[id]
    if (!isPacked(p)) return undefined
    return [this.lengthOf(id), p[0], p[1], p[2]]
  }

  /** The stemmed synonym table it was written with (see terms.ts seedSynonymTable). */
  synonyms(): unknown[] {
    const s = this.section(this.meta.synonyms)
    return Array.isArray(s) ? s : []
  }

  private section(span: [number, number]): unknown {
    if (span[0] === span[1] || this.fd === undefined) return undefined
    try {
      return JSON.parse(readSpan(this.fd, this.base, span))
    } catch (e) {
      rethrowUnless(e instanceof SyntaxError || isFsError(e), e)
      return undefined
    }
  }

  /**
   * Writes the file for these memories (atomically, without fsync: it is disposable). A failed
   * write is a warning, not an error: the next run builds it again.
   */
  static async write(
    file: string,
    version: string,
    docs: readonly IndexedDoc[],
    synonyms: readonly unknown[],
  ): Promise<void> {
    // Ids are the docs' places: TermPostings numbers the memories in the order they are added.
    const lists = new TermPostings()
    for (const doc of docs) lists.add(doc.filename, doc.terms)
    const { buckets, postings } = layOut(lists)
    const parts: string[] = []
    let at = 0
    const add = (text: string): [number, number] => {
      parts.push(text)
      const start = at
      at += Buffer.byteLength(text)
      return [start, at]
    }
    const docsSpan = add(
      JSON.stringify([
        docs.map((d) => d.filename),
        docs.map((d) => d.mtimeMs),
        docs.map((d) => d.size),
        docs.map((d) => d.terms[0]),
      ]),
    )
    const packedSpan = add(JSON.stringify(docs.map((d) => [d.terms[1], d.terms[2], d.terms[3]])))
    const synonymSpan = add(JSON.stringify(synonyms))
    const bucketSpans = buckets.map((b) => add(JSON.stringify(b)))
    const meta: Meta = {
      v: `${FORMAT}:${version}`,
      docs: docsSpan,
      packed: packedSpan,
      synonyms: synonymSpan,
      buckets: bucketSpans,
      postings: [at, at + postings.byteLength],
    }
    const data = Buffer.concat([
      Buffer.from(`${JSON.stringify(meta)}\n${parts.join('')}`),
      new Uint8Array(postings.buffer, postings.byteOffset, postings.byteLength),
    ])
    try {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 })
      await writeFileAtomic(file, data, { mode: 0o600, durable: false })
    } catch (e) {
      process.emitWarning(`memdir: cache ${file} not saved (${messageOf(e)})`)
    }
  }
}
