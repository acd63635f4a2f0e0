import { SPACELESS_CLASS, hasSpacelessScript } from '../../../src-shared/spaceless-scripts.js'

/**
 * Near-duplicate memories: word 3-shingles compared by Jaccard similarity, with MinHash signatures
 * and LSH banding so 2,000 memories do not mean 2 million comparisons. Candidates from LSH are
 * confirmed with the exact Jaccard of their shingle sets.
 */

const HASHES = 64
const BANDS = 16
const ROWS = HASHES / BANDS
const SHINGLE = 3

export interface Shingled {
  shingles: Set<number>
  signature: Uint32Array
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A 32-bit mix (murmur3's finalizer) of x with one seed per MinHash function. */
function mix(x: number, seed: number): number {
  let h = (x ^ seed) >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

const SEEDS = Array.from({ length: HASHES }, (_, i) => fnv1a(`memdir-minhash-${i}`))

/**
 * Words, and each character of Chinese, Japanese, Korean or Thai text (written without spaces, where a
 * sentence is one "word": two memories differing by a character anywhere shared no shingle).
 */
const SPACELESS_CHAR = `[${SPACELESS_CLASS}]`
const WORD_OR_SPACELESS_CHAR = new RegExp(`${SPACELESS_CHAR}|(?:(?!${SPACELESS_CHAR})[\\p{L}\\p{N}])+`, 'gu')
const WORD = /[\p{L}\p{N}]+/gu

export function shingle(text: string): Shingled {
  const lower = text.toLowerCase()
  const words = (hasSpacelessScript(lower) ? lower.match(WORD_OR_SPACELESS_CHAR) : lower.match(WORD)) ?? []
  const shingles = new Set<number>()
  if (words.length < SHINGLE) {
    if (words.length) shingles.add(fnv1a(words.join(' ')))
  } else
    for (let i = 0; i + SHINGLE <= words.length; i++)
      shingles.add(fnv1a(words.slice(i, i + SHINGLE).join(' ')))
  const signature = new Uint32Array(HASHES).fill(0xffffffff)
  for (const s of shingles)
    for (let k = 0; k < HASHES; k++) {
      const v = mix(s, SEEDS[k]!)
      if (v < signature[k]!) signature[k] = v
    }
  return { shingles, signature }
}

export function jaccard(a: Set<number>, b: Set<number>): number {
  if (!a.size && !b.size) return 0
  const [small, big] = a.size <= b.size ? [a, b] : [b, a]
  let inter = 0
  for (const x of small) if (big.has(x)) inter++
  return inter / (a.size + b.size - inter)
}

export interface SimilarPair {
  a: string
  b: string
  similarity: number
}

/** The share of equal MinHash values: an estimate of Jaccard similarity, 64 integer compares. */
function estimate(a: Uint32Array, b: Uint32Array): number {
  let eq = 0
  for (let k = 0; k < HASHES; k++) if (a[k] === b[k]) eq++
  return eq / HASHES
}

/** MinHash's estimate has a standard error of about 0.06 at 64 hashes: a margin below the threshold. */
const ESTIMATE_MARGIN = 0.15

/**
 * Bounds for a corpus of near-copies (thousands of memories from one template): a memory, as it is
 * added, is compared with at most `MAX_COMPARED` others from its buckets and paired with the first
 * `MAX_PARTNERS` near-copies among them, so n memories make at most 3n pairs. Without them 10,000
 * such memories meant 50 million pairs.
 */
const MAX_COMPARED = 200
const MAX_PARTNERS = 3

/**
 * Near-duplicate pairs, kept current document by document: adding or changing one document
 * compares it only with the documents sharing an LSH band with it (after a MinHash estimate),
 * so an incremental check does not redo the whole corpus.
 */
export class NearDuplicateIndex {
  private docs = new Map<string, Shingled>()
  private bands = new Map<string, string[]>()
  private buckets = new Map<string, Set<string>>()
  private pairs = new Map<string, Map<string, number>>()

  constructor(private readonly threshold: number) {}

  get size(): number {
    return this.docs.size
  }

  has(key: string): boolean {
    return this.docs.has(key)
  }

  set(key: string, d: Shingled): void {
    this.remove(key)
    this.docs.set(key, d)
    if (d.shingles.size < 2) return
    const keys: string[] = []
    const compared = new Set<string>()
    for (let b = 0; b < BANDS; b++) {
      const band = `${b}:${d.signature.subarray(b * ROWS, (b + 1) * ROWS).join(',')}`
      keys.push(band)
      let bucket = this.buckets.get(band)
      if (!bucket) this.buckets.set(band, (bucket = new Set()))
      for (const other of bucket) {
        if (compared.size >= MAX_COMPARED || this.partners(key) >= MAX_PARTNERS) break
        if (compared.has(other)) continue
        compared.add(other)
        const o = this.docs.get(other)!
        if (estimate(d.signature, o.signature) < this.threshold - ESTIMATE_MARGIN) continue
        const sim = jaccard(d.shingles, o.shingles)
        if (sim < this.threshold) continue
        this.link(key, other, sim)
        this.link(other, key, sim)
      }
      bucket.add(key)
    }
    this.bands.set(key, keys)
  }

  private partners(key: string): number {
    return this.pairs.get(key)?.size ?? 0
  }

  private link(a: string, b: string, sim: number) {
    let m = this.pairs.get(a)
    if (!m) this.pairs.set(a, (m = new Map()))
    m.set(b, sim)
  }

  remove(key: string): void {
    if (!this.docs.delete(key)) return
    for (const band of this.bands.get(key) ?? []) this.buckets.get(band)?.delete(key)
    this.bands.delete(key)
    for (const other of this.pairs.get(key)?.keys() ?? []) this.pairs.get(other)?.delete(key)
    this.pairs.delete(key)
  }

  keys(): IterableIterator<string> {
    return this.docs.keys()
  }

  /** Every pair at or above the threshold, a < b, most similar first. */
  list(): SimilarPair[] {
    const out: SimilarPair[] = []
    for (const [a, m] of this.pairs)
      for (const [b, similarity] of m) if (a < b) out.push({ a, b, similarity })
    return out.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a))
  }
}
