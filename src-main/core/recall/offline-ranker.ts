import { bodyOf } from '../store/frontmatter.js'
import { type MemoryHeader, readHeads, type Scanner } from '../store/scan.js'
import { MAX_RECALLED } from './selector-prompt.js'
import type { DocTerms, IndexedTerms, TermSource } from './term-source.js'
import { packedTermMatcher, type PackedTerms, packTerms, synonymTable, termsOf } from './terms.js'

export { tokenize } from './terms.js'

/** Query terms with weights: its own terms 1, their synonyms 0.6 (never above a term it has itself). */
function queryTerms(query: string, tune: Tuning): { weights: Map<string, number>; own: string[] } {
  const own = [...new Set(termsOf(query))]
  const weights = new Map(own.map((t) => [t, 1]))
  for (const t of own)
    for (const s of synonymTable().get(t) ?? []) if (!weights.has(s)) weights.set(s, tune.synonymWeight)
  return { weights, own }
}

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
 * The ranker used when no model is configured: BM25F over name (×3), description (×3) and body
 * (×1, its first 60 lines) with stemming and software synonyms. Only memories that cover enough
 * of the query and score near the best are returned — nothing, when nothing fits.
 */
export async function rankMemoriesOffline(
  query: string,
  candidates: readonly MemoryHeader[],
  opts: RankOptions = {},
): Promise<RankedMemory[]> {
  await opts.cache?.ready() // first: it may hold the stemmed synonym table queryTerms needs
  const tune: Tuning = { ...TUNING, ...opts.tuning }
  const { weights, own } = queryTerms(query, tune)
  if (!own.length) return []
  const build = () => corpusOf(candidates, opts.cache, opts.scanner)
  const c = opts.cache ? await opts.cache.prepared(candidates, build) : (await build()).value
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
  // Each (memory, query term) pair that occurs, from both sources; called once to count and once to score.
  const lists = postings ? queried.map((q) => postings.list(q)) : []
  const eachMatch = (use: (at: number, j: number, n: number, d: number, b: number) => void) => {
    for (let k = 0; k < matches.length; k += 5)
      use(matches[k]!, matches[k + 1]!, matches[k + 2]!, matches[k + 3]!, matches[k + 4]!)
    for (let j = 0; j < lists.length; j++) {
      const list = lists[j]!
      for (let k = 0; k < list.length; k += 4) {
        const at = placeOf![list[k]!] ?? -1
        if (at >= 0 && !skip?.[at]) use(at, j, list[k + 1]!, list[k + 2]!, list[k + 3]!)
      }
    }
  }
  // The memories any query term matches, in candidate order, each with its slot in the score arrays.
  const df = new Int32Array(queried.length)
  const slotOf = new Int32Array(candidates.length).fill(-1)
  const hits: number[] = []
  eachMatch((at, j) => {
    df[j]!++
    if (slotOf[at]! < 0) {
      slotOf[at] = 0
      hits.push(at)
    }
  })
  if (!hits.length) return []
  hits.sort((x, y) => x - y)
  hits.forEach((at, slot) => (slotOf[at] = slot))
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
    for (const s of synonymTable().get(queried[j]!) ?? [])
      groupsOf[index.get(s)!]!.push(group, tune.synonymWeight)
  })
  // Per memory and query term (a group: the term and its synonyms) its best-matching variant
  // counts, once: a memory that says "deploy", "ship" and "rollout" has matched one query word,
  // not three. best: how fully it is matched (coverage); gain: its BM25F share (score).
  const G = ownIdx.length
  const best = new Float64Array(hits.length * G)
  const gain = new Float64Array(hits.length * G)
  eachMatch((at, j, n, d, b) => {
    const norm = K1 * (1 - B + (B * length[at]!) / avgLen)
    const tf = FIELDS.name * n + FIELDS.description * d + FIELDS.body * b
    const saturated = idfs[j]! * ((tf * (K1 + 1)) / (tf + norm))
    const where = n + d > 0 ? 1 : tune.bodyOnly
    const pairs = groupsOf[j]!
    const row = slotOf[at]! * G
    for (let p = 0; p < pairs.length; p += 2) {
      const slot = row + pairs[p]!
      const w = pairs[p + 1]!
      if (w * where > best[slot]!) best[slot] = w * where
      if (w * saturated > gain[slot]!) gain[slot] = w * saturated
    }
  })
  // Scores per matched memory; an object only for the memories returned (a few of many thousands).
  const score = new Float64Array(hits.length)
  const coverage = new Float64Array(hits.length)
  let top = -1
  for (let h = 0; h < hits.length; h++) {
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
  // Whether anything fits is the best memory's question; which memories are returned then is
  // relative to it, so every memory close to the best comes back, not mostly one.
  if (top < 0 || score[top]! <= 0 || coverage[top]! < tune.minCoverage) return []
  const returned: RankedMemory[] = []
  for (let h = 0; h < hits.length; h++)
    if (score[h]! >= tune.minShareOfTop * score[top]! && coverage[h]! >= tune.minOwnCoverage)
      returned.push({ header: candidates[hits[h]!]!, score: score[h]!, coverage: coverage[h]! })
  return returned
    .sort((a, b) => b.score - a.score || b.header.mtimeMs - a.header.mtimeMs)
    .slice(0, opts.limit ?? MAX_RECALLED)
}
