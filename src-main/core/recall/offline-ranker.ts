import { bodyOf } from '../store/frontmatter.js'
import { type MemoryHeader, readHeads, type Scanner } from '../store/scan.js'
import { MAX_RECALLED } from './selector-prompt.js'
import type { DocTerms, IndexedTerms, TermSource } from './term-source.js'
import {
  compoundWords,
  identifierWords,
  packedTermMatcher,
  type PackedTerms,
  packTerms,
  synonymTable,
  termsOf,
} from './terms.js'

export { tokenize } from './terms.js'

/**
 * Query terms with weights: its own terms 1, their synonyms 0.6 (never above a term it has itself).
 * `variants`: per own term, the other terms that count for it and at what weight — its synonyms,
 * and for a phrase the table knows ("pull request") or a camel-case identifier (`OrdersRepository`)
 * each of its words at half: the phrase or identifier is one thing asked about, so its words are
 * not asked about again apart (a memory that says "PR" covers "pull request" without covering
 * "pull" and "request" too; one that says only "effects" does not cover `useEffect` whole).
 */
function queryTerms(
  query: string,
  tune: Tuning,
): { weights: Map<string, number>; own: string[]; variants: Map<string, [string, number][]> } {
  const all = termsOf(query)
  const terms = [...new Set(all)]
  const wordsOf = new Map<string, string[]>(
    terms.filter((t) => t.includes(' ')).map((t) => [t, t.split(' ')]),
  )
  for (const [id, words] of identifierWords(query)) if (terms.includes(id)) wordsOf.set(id, words)
  for (const [c, words] of compoundWords(query)) if (terms.includes(c) && words.length) wordsOf.set(c, words)
  // A word that only stands for a phrase or identifier of the query is no ask of its own; one the
  // query also writes apart ("OrdersRepository: are orders kept?") is.
  const standsFor = new Map<string, number>()
  for (const words of wordsOf.values()) for (const w of words) standsFor.set(w, (standsFor.get(w) ?? 0) + 1)
  const written = new Map<string, number>()
  for (const t of all) written.set(t, (written.get(t) ?? 0) + 1)
  const own = terms.filter((t) => !standsFor.has(t) || written.get(t)! > standsFor.get(t)!)
  const weights = new Map(terms.map((t) => [t, 1]))
  const variants = new Map<string, [string, number][]>()
  for (const t of own) {
    const list: [string, number][] = (synonymTable().get(t) ?? []).map((s) => [s, tune.synonymWeight])
    for (const w of wordsOf.get(t) ?? []) list.push([w, PART_WORD_WEIGHT])
    for (const [s, w] of list) if (!weights.has(s)) weights.set(s, w)
    variants.set(t, list)
  }
  return { weights, own, variants }
}

/** How much one word of a phrase or identifier the query asks about covers of it. */
const PART_WORD_WEIGHT = 0.5

const K1 = 1.2
const B = 0.75
/** Field weights: what a memory is for (name, description) counts above its body. */
const FIELDS = { name: 3, description: 3, body: 1 } as const

export interface Tuning {
  synonymWeight: number
  bodyOnly: number
  minCoverage: number
  minShareOfTop: number
  minOwnCoverage: number
  absentWeight: number
}

/**
 * The ranker's cut-offs, tuned on the tuning half of bench/recall-quality's sets only (the
 * held-out half is for reporting; bench/recall-quality/sweep.ts is how).
 */
export const TUNING: Readonly<Tuning> = {
  synonymWeight: 0.6,
  /** A query term only the body matches covers this much of itself. */
  bodyOnly: 0.5,
  /** Something fits only if the best memory covers this share of the query (idf-weighted); … */
  minCoverage: 0.3,
  /** … then every memory scoring at least this share of the best one is returned, … */
  minShareOfTop: 0.7,
  /** … if it covers this share of the query itself. */
  minOwnCoverage: 0.15,
  /** How much a query word no memory has weighs in coverage, relative to an average word. */
  absentWeight: 1,
}
/** How much of the body is ranked. */
const BODY_LINES = 60

/** A memory's terms: name (with its file name's words), description, and the body's first lines. */
function docTermsOf(header: MemoryHeader, head: string): DocTerms {
  const name = `${header.name ?? ''} ${header.filename.replace(/\.md$/, '').replace(/[_./-]/g, ' ')}`
  const [n, d, b] = [termsOf(name), termsOf(header.description ?? ''), termsOf(bodyOf(head))].map(
    packTerms,
  ) as [PackedTerms, PackedTerms, PackedTerms]
  return [n.total + d.total + b.total, n.text, d.text, b.text]
}

/**
 * The terms of the candidates at `places`, from the cache where the file is unchanged, else from
 * its head (and cached); `fromCache` says whether none had to be read.
 */
async function termsAt(
  candidates: readonly MemoryHeader[],
  places: readonly number[],
  cache: TermSource | undefined,
  scanner: Scanner | undefined,
): Promise<{ terms: (DocTerms | undefined)[]; fromCache: boolean }> {
  const terms: (DocTerms | undefined)[] = new Array(candidates.length)
  const missing: number[] = []
  for (const at of places) {
    terms[at] = cache?.get(candidates[at]!)
    if (!terms[at]) missing.push(at)
  }
  if (!missing.length) return { terms, fromCache: true }
  const heads = await readHeads(
    missing.map((at) => candidates[at]!.filePath),
    BODY_LINES,
    scanner,
  )
  missing.forEach((at, k) => {
    const head = heads[k]
    if (!head) return
    const header = candidates[at]!
    const t = docTermsOf(header, head.content)
    terms[at] = t
    // The header came from an earlier read: cache only what both reads saw alike.
    if (head.mtimeMs === header.mtimeMs && head.size === header.size)
      cache?.set({ ...header, size: head.size }, t)
  })
  return { terms, fromCache: false }
}

export interface RankedMemory {
  header: MemoryHeader
  score: number
  /** Share of the query's (idf-weighted) terms the memory matches, itself or by a synonym. */
  coverage: number
}

export interface RankOptions {
  limit?: number
  /** File paths of candidates left out (already shown this session): as if not in the list. */
  exclude?: ReadonlySet<string>
  /** Terms kept from earlier runs; updated with what this run had to read. */
  cache?: TermSource
  /** Where the heads of uncached memories are read. */
  scanner?: Scanner
  /** Other cut-offs than TUNING (the bench's tuning grid). */
  tuning?: Partial<Tuning>
}

/**
 * Every (memory, query term) pair that occurs, five numbers each: the memory's place among the
 * candidates, the term's index, and its count in the name, description and body.
 */
type Matches = number[]

/** Adds the query terms one memory's packed fields have to `out`, through `counts` (all zero again after). */
function matchFields(
  at: number,
  t: DocTerms,
  matcher: RegExp,
  index: Map<string, number>,
  counts: Int32Array,
  out: Matches,
): void {
  const found: number[] = []
  for (let f = 0; f < 3; f++) {
    const packed = t[f + 1] as string
    matcher.lastIndex = 0
    for (let m = matcher.exec(packed); m; m = matcher.exec(packed)) {
      const j = index.get(m[1]!)!
      if (counts[3 * j]! + counts[3 * j + 1]! + counts[3 * j + 2]! === 0) found.push(j)
      counts[3 * j + f] = Number(m[2])
    }
  }
  found.sort((x, y) => x - y)
  for (const j of found) {
    out.push(at, j, counts[3 * j]!, counts[3 * j + 1]!, counts[3 * j + 2]!)
    counts.fill(0, 3 * j, 3 * j + 3)
  }
}

/** What a ranking reads of its candidates before it looks at the query. */
interface Corpus {
  /** Each memory's terms' total, by place among the candidates; -1: it has none (unreadable). */
  length: Float64Array
  /** The postings the term source keeps, and id → place among the candidates (-1: none). */
  index: IndexedTerms | undefined
  placeOf: Int32Array | undefined
  /** Places of the memories the postings do not answer for, matched by regex per query, and their terms. */
  unindexed: number[]
  terms: (DocTerms | undefined)[]
  /** Memories with terms, and their terms' total. */
  count: number
  lengths: number
  /** File path → place (built on the first exclusion). */
  placeByPath?: Map<string, number>
}

async function corpusOf(
  candidates: readonly MemoryHeader[],
  cache: TermSource | undefined,
  scanner: Scanner | undefined,
): Promise<{ value: Corpus; fromCache: boolean }> {
  const index = cache?.indexed()
  const placeOf = index ? new Int32Array(index.idCount).fill(-1) : undefined
  const length = new Float64Array(candidates.length).fill(-1)
  const unlisted: number[] = []
  candidates.forEach((header, at) => {
    const id = index ? index.idOf(header) : -1
    if (id < 0) return void unlisted.push(at)
    placeOf![id] = at
    length[at] = index!.lengthOf(id)
  })
  const { terms, fromCache } = await termsAt(candidates, unlisted, cache, scanner)
  const unindexed = unlisted.filter((at) => terms[at])
  for (const at of unindexed) length[at] = terms[at]![0]
  let count = 0
  let lengths = 0
  for (const n of length)
    if (n >= 0) {
      count++
      lengths += n
    }
  return { value: { length, index, placeOf, unindexed, terms, count, lengths }, fromCache }
}

/**
 * Appends to `pairs` (from `end` on) the postings lists' entries for memories among the candidates
 * and not left out, as five integers: place, term index, count in name, description, body.
 * Returns the new end. (The hot loops are small functions of their own: V8 optimises each once,
 * where inside the ranker's one large function it kept optimising and throwing the code away.)
 */
function placedPairs(
  pairs: Int32Array,
  end: number,
  lists: readonly ArrayLike<number>[],
  placeOf: Int32Array | undefined,
  skip: Uint8Array | undefined,
): number {
  for (let j = 0; j < lists.length; j++) {
    const list = lists[j]!
    for (let k = 0; k < list.length; k += 4) {
      const at = placeOf![list[k]!] ?? -1
      if (at < 0 || skip?.[at]) continue
      pairs[end] = at
      pairs[end + 1] = j
      pairs[end + 2] = list[k + 1]!
      pairs[end + 3] = list[k + 2]!
      pairs[end + 4] = list[k + 3]!
      end += 5
    }
  }
  return end
}

/** Per query term, how many memories have it (`df`); marks (0) in `slotOf` each memory any term matches. */
function countPairs(pairs: Int32Array, end: number, df: Int32Array, slotOf: Int32Array): void {
  for (let k = 0; k < end; k += 5) {
    df[pairs[k + 1]!]!++
    slotOf[pairs[k]!] = 0
  }
}

interface Weights {
  length: Float64Array
  avgLen: number
  idfs: number[]
  /** Per query term, flat pairs: the own term (group) it counts for, and at what weight. */
  groupsOf: number[][]
  slotOf: Int32Array
  /** Groups: the query's own terms. */
  G: number
  bodyOnly: number
}

/**
 * Per matched memory and group, how fully the group is matched (`best`, for coverage) and its
 * best variant's BM25F share (`gain`, for the score): each pair counts once per group, at the
 * weight of the variant (the term itself or a synonym).
 */
function scorePairs(
  pairs: Int32Array,
  end: number,
  w: Weights,
  best: Float64Array,
  gain: Float64Array,
): void {
  const { length, avgLen, idfs, groupsOf, slotOf, G, bodyOnly } = w
  for (let k = 0; k < end; k += 5) {
    const at = pairs[k]!
    const j = pairs[k + 1]!
    const n = pairs[k + 2]!
    const d = pairs[k + 3]!
    const norm = K1 * (1 - B + (B * length[at]!) / avgLen)
    const tf = FIELDS.name * n + FIELDS.description * d + FIELDS.body * pairs[k + 4]!
    const saturated = idfs[j]! * ((tf * (K1 + 1)) / (tf + norm))
    const where = n + d > 0 ? 1 : bodyOnly
    const groups = groupsOf[j]!
    const row = slotOf[at]! * G
    for (let p = 0; p < groups.length; p += 2) {
      const slot = row + groups[p]!
      const weight = groups[p + 1]!
      if (weight * where > best[slot]!) best[slot] = weight * where
      if (weight * saturated > gain[slot]!) gain[slot] = weight * saturated
    }
  }
}

/** Gives each marked memory (0 in `slotOf`) its slot, in candidate order; returns how many. */
function slotHits(slotOf: Int32Array, candidates: number, hitPlaces: Int32Array): number {
  let hits = 0
  for (let at = 0; at < candidates; at++)
    if (slotOf[at] === 0) {
      slotOf[at] = hits
      hitPlaces[hits++] = at
    }
  return hits
}

/** Each matched memory's score and coverage from its groups; returns the best one's slot (-1: none). */
function sumGroups(
  hits: number,
  G: number,
  best: Float64Array,
  gain: Float64Array,
  mass: number[],
  ownMass: number,
  score: Float64Array,
  coverage: Float64Array,
): number {
  let top = -1
  for (let h = 0; h < hits; h++) {
    let covered = 0
    let sum = 0
    for (let g = 0; g < G; g++) {
      covered += best[h * G + g]! * mass[g]!
      sum += gain[h * G + g]!
    }
    score[h] = sum
    coverage[h] = covered / ownMass
    if (top < 0 || sum > score[top]!) top = h
  }
  return top
}

/**
 * Buffers the scoring reuses from prompt to prompt, grown as needed: the app ranks every prompt
 * against thousands of memories, and fresh arrays each time were mostly garbage to collect. Only
 * the synchronous scoring uses them (after the ranker's last await), so no two rankings share one.
 */
const scratch = (() => {
  const ints = new Map<string, Int32Array>()
  const floats = new Map<string, Float64Array>()
  const grown = <T extends Int32Array | Float64Array>(
    pool: Map<string, T>,
    name: string,
    n: number,
    make: (n: number) => T,
  ) => {
    let a = pool.get(name)
    if (!a || a.length < n) pool.set(name, (a = make(Math.max(n, 2 * (a?.length ?? 0), 256))))
    return a
  }
  return {
    ints: (name: string, n: number) => grown(ints, name, n, (k) => new Int32Array(k)),
    floats: (name: string, n: number) => grown(floats, name, n, (k) => new Float64Array(k)),
  }
})()

/**
 * Reads and keeps what ranking these candidates needs (their terms, the postings' places), as the
 * first prompt would: a long-running process does it in the background after opening, so that
 * prompt is not the one that waits for it.
 */
export async function prepareOfflineRanking(
  candidates: readonly MemoryHeader[],
  opts: Pick<RankOptions, 'cache' | 'scanner'>,
): Promise<void> {
  if (!opts.cache) return // nothing would keep it
  await opts.cache.ready()
  await preparedCorpus(candidates, opts)
}

/** The corpus of these candidates, as the term source keeps it for them (or built for this once). */
async function preparedCorpus(
  candidates: readonly MemoryHeader[],
  opts: Pick<RankOptions, 'cache' | 'scanner'>,
): Promise<Corpus> {
  const build = () => corpusOf(candidates, opts.cache, opts.scanner)
  return opts.cache ? opts.cache.prepared(candidates, build) : (await build()).value
}

/**
 * The ranker used when no model is configured: BM25F over name (×3), description (×3) and body
 * (×1, its first 60 lines) with stemming and software synonyms. Only memories that cover enough
 * of the query and score near the best are returned — nothing, when nothing fits.
 */
export async function rankMemoriesOffline(
  query: string,
  candidates: readonly MemoryHeader[],
  opts: RankOptions = {},
): Promise<RankedMemory[]> {
  const whole = await rankQuery(query, candidates, opts)
  if (whole.length) return whole
  // A question with a log, a trace or code pasted below or above it: the pasted words, in no
  // memory, outweigh the few the user asked with, and nothing covers enough of the whole. What
  // the user asks is nearly always the prompt's first or last line; each passes the same cut-offs.
  for (const line of askedLines(query)) {
    const ranked = await rankQuery(line, candidates, opts)
    if (ranked.length) return ranked
  }
  return []
}

/** A prompt's first and last non-empty lines, when it has more than one. */
function askedLines(query: string): string[] {
  const lines = query
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
  return lines.length < 2 ? [] : [...new Set([lines[0]!, lines[lines.length - 1]!])]
}

async function rankQuery(
  query: string,
  candidates: readonly MemoryHeader[],
  opts: RankOptions,
): Promise<RankedMemory[]> {
  await opts.cache?.ready() // first: it may hold the stemmed synonym table queryTerms needs
  const tune: Tuning = { ...TUNING, ...opts.tuning }
  const { weights, own, variants } = queryTerms(query, tune)
  if (!own.length) return []
  const c = await preparedCorpus(candidates, opts)
  const { length, index: postings, placeOf, terms } = c
  // Left-out memories are not part of the corpus either (its size and average length).
  let { count: corpus, lengths } = c
  let skip: Uint8Array | undefined
  if (opts.exclude?.size) {
    skip = new Uint8Array(candidates.length)
    c.placeByPath ??= new Map(candidates.map((h, at) => [h.filePath, at]))
    for (const path of opts.exclude) {
      const at = c.placeByPath.get(path)
      if (at === undefined || skip[at]) continue
      skip[at] = 1
      if (length[at]! >= 0) {
        corpus--
        lengths -= length[at]!
      }
    }
  }
  // Query terms are found with one regex pass per field, or read from the cache's postings (a
  // long-running process keeps them); then scored a term at a time. Besides being quick, this keeps
  // the per-memory JavaScript small: a one-shot CLI or hook process would otherwise start
  // optimising compiles it then has to wait for at exit.
  const queried = [...weights.keys()]
  const index = new Map(queried.map((q, j) => [q, j]))
  const matcher = packedTermMatcher(queried)
  const matches: Matches = []
  const counts = new Int32Array(3 * queried.length)
  for (const at of c.unindexed) if (!skip?.[at]) matchFields(at, terms[at]!, matcher, index, counts, matches)
  // Every (memory, query term) pair that occurs, from both sources, five integers each: the
  // memory's place, the term's index, and its count in the name, description and body. Plain loops
  // over one buffer (kept from prompt to prompt) count and then score them: at 20,000 memories that
  // all share the query's words, a callback per pair and per-prompt arrays were most of the time.
  const lists = postings ? queried.map((q) => postings.list(q)) : []
  let listed = 0
  for (const list of lists) listed += list.length
  const pairs = scratch.ints('pairs', matches.length + (listed / 4) * 5)
  pairs.set(matches)
  const end = placedPairs(pairs, matches.length, lists, placeOf, skip)
  // The memories any query term matches, in candidate order, each with its slot in the score arrays.
  const df = new Int32Array(queried.length)
  const slotOf = scratch.ints('slotOf', candidates.length).fill(-1, 0, candidates.length)
  countPairs(pairs, end, df, slotOf)
  const hitPlaces = scratch.ints('hits', candidates.length)
  const hits = slotHits(slotOf, candidates.length, hitPlaces)
  if (!hits) return []
  const avgLen = lengths / corpus || 1
  // A query word no memory has would weigh the most: it counts as an average word instead, so a
  // small memory dir is not judged by the words it cannot contain.
  const raw = queried.map((_, j) => Math.log(1 + (corpus - df[j]! + 0.5) / (df[j]! + 0.5)))
  const inSome = (j: number) => df[j]! > 0
  const ownIdx = own.map((t) => index.get(t)!)
  const presentOwn = ownIdx.filter(inSome)
  const present = presentOwn.length ? presentOwn : queried.map((_, j) => j).filter(inSome)
  if (!present.length) return []
  const typical = present.reduce((n, j) => n + raw[j]!, 0) / present.length
  const idfs = raw.map((v, j) => (inSome(j) ? v : typical))
  // Coverage counts each of the query's own terms once: matched by itself (in full) or by a
  // synonym (at its weight), in full in the name or description, at half when only the body has
  // it. groupsOf[j]: the own terms a matched term j counts for, and how much.
  const mass = ownIdx.map((j) => (inSome(j) ? idfs[j]! : tune.absentWeight * idfs[j]!))
  const ownMass = mass.reduce((n, m) => n + m, 0) || 1
  // Flat pairs (group, weight) per term: indexed loops, as this runs cold (interpreted) in a hook.
  const groupsOf: number[][] = queried.map(() => [])
  ownIdx.forEach((j, group) => {
    groupsOf[j]!.push(group, 1)
    for (const [s, weight] of variants.get(queried[j]!)!) groupsOf[index.get(s)!]!.push(group, weight)
  })
  // Per memory and query term (a group: the term and its synonyms) its best-matching variant
  // counts, once: a memory that says "deploy", "ship" and "rollout" has matched one query word,
  // not three. best: how fully it is matched (coverage); gain: its BM25F share (score).
  const G = ownIdx.length
  const best = scratch.floats('best', hits * G).fill(0, 0, hits * G)
  const gain = scratch.floats('gain', hits * G).fill(0, 0, hits * G)
  scorePairs(pairs, end, { length, avgLen, idfs, groupsOf, slotOf, G, bodyOnly: tune.bodyOnly }, best, gain)
  // Scores per matched memory; an object only for the memories returned (a few of many thousands).
  const score = scratch.floats('score', hits)
  const coverage = scratch.floats('coverage', hits)
  const top = sumGroups(hits, G, best, gain, mass, ownMass, score, coverage)
  // Whether anything fits is the best memory's question; which memories are returned then is
  // relative to it, so every memory close to the best comes back, not mostly one.
  if (top < 0 || score[top]! <= 0 || coverage[top]! < tune.minCoverage) return []
  const chosen = bestSlots(
    hits,
    opts.limit ?? MAX_RECALLED,
    { score, coverage, minScore: tune.minShareOfTop * score[top]!, minCoverage: tune.minOwnCoverage },
    (h) => candidates[hitPlaces[h]!]!.mtimeMs,
  )
  return chosen.map((h) => ({ header: candidates[hitPlaces[h]!]!, score: score[h]!, coverage: coverage[h]! }))
}

/**
 * The `k` best slots that pass both cut-offs, best first: the higher score, then the newer memory,
 * then the earlier slot. Picked in one pass: thousands may pass (memories that all share the
 * query's words), and sorting them all to keep five was most of a ranking at 20,000.
 */
function bestSlots(
  hits: number,
  k: number,
  cut: { score: Float64Array; coverage: Float64Array; minScore: number; minCoverage: number },
  mtimeOf: (slot: number) => number,
): number[] {
  const { score, coverage, minScore, minCoverage } = cut
  const before = (a: number, b: number) =>
    score[a]! > score[b]! || (score[a] === score[b] && mtimeOf(a) > mtimeOf(b))
  const out: number[] = []
  for (let h = 0; h < hits; h++) {
    if (score[h]! < minScore || coverage[h]! < minCoverage) continue
    if (out.length >= k && !before(h, out[out.length - 1]!)) continue
    let i = out.length >= k ? out.length - 1 : out.length
    while (i > 0 && before(h, out[i - 1]!)) {
      out[i] = out[i - 1]!
      i--
    }
    out[i] = h
  }
  return out
}
