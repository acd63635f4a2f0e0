import { stemmer } from 'stemmer'
import { bodyOf } from '../store/frontmatter.js'
import { type MemoryHeader, readHeads } from '../store/scan.js'
import { MAX_RECALLED } from './selector-prompt.js'
import { STOPWORDS, SYNONYM_GROUPS } from './vocabulary.js'

const stems = new Map<string, string>()
const stem = (w: string) => {
  let s = stems.get(w)
  if (s === undefined) stems.set(w, (s = stemmer(w)))
  return s
}

// eslint-disable-next-line no-control-regex -- the ASCII range is the point
const NON_ASCII = /[^\x00-\x7f]/
const WORD = /[\p{L}\p{N}]+/gu
// Accents split off by NFKD go, so "résumé" is one word, "resume".
const MARKS = /\p{M}/gu
const ASCII_WORD = /[a-z0-9]+/g

/** Lowercased, accents folded, stopwords dropped, Porter-stemmed ("Translations" → "translat"). */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase()
  // ASCII text (most memories) needs no folding, and a plain class matches what the Unicode one would.
  const words =
    (NON_ASCII.test(lower)
      ? lower.normalize('NFKD').replace(MARKS, '').match(WORD)
      : lower.match(ASCII_WORD)) ?? []
  const out: string[] = []
  for (const w of words) if (w.length > 1 && !STOPWORDS.has(w)) out.push(stem(w))
  return out
}

let synonyms: Map<string, string[]> | undefined

/** Stemmed term (or two-word phrase) → the other terms of its group. */
function synonymTable(): Map<string, string[]> {
  if (synonyms) return synonyms
  synonyms = new Map()
  for (const group of SYNONYM_GROUPS) {
    const terms = [...new Set(group.map((g) => tokenize(g).join(' ')).filter(Boolean))]
    for (const t of terms)
      synonyms.set(t, [...new Set([...(synonyms.get(t) ?? []), ...terms.filter((o) => o !== t)])])
  }
  return synonyms
}

/** A text's terms: its stems, plus the two-word phrases the synonym table knows ("screen reader"). */
function termsOf(text: string): string[] {
  const words = tokenize(text)
  const table = synonymTable()
  const out = [...words]
  for (let i = 0; i + 1 < words.length; i++) {
    const pair = `${words[i]} ${words[i + 1]}`
    if (table.has(pair)) out.push(pair)
  }
  return out
}

/** Query terms with weights: its own terms 1, their synonyms 0.6 (never above a term it has itself). */
function queryTerms(query: string): { weights: Map<string, number>; own: string[] } {
  const own = [...new Set(termsOf(query))]
  const weights = new Map(own.map((t) => [t, 1]))
  for (const t of own)
    for (const s of synonymTable().get(t) ?? []) if (!weights.has(s)) weights.set(s, SYNONYM_WEIGHT)
  return { weights, own }
}

const K1 = 1.2
const B = 0.75
const SYNONYM_WEIGHT = 0.6
/** Field weights: what a memory is for (name, description) counts above its body. */
const FIELDS = { name: 3, description: 3, body: 1 } as const
/** A query term only the body matches covers this much of itself. */
const BODY_ONLY = 0.5
/** A memory must cover this share of the query (idf-weighted) … */
const MIN_COVERAGE = 0.3
/** … and score at least this share of the best memory's score. */
const MIN_SHARE_OF_TOP = 0.7

interface Doc {
  header: MemoryHeader
  fields: { terms: Map<string, number>; weight: number }[]
  length: number
  all: Set<string>
  /** Terms of the name and description: what the memory is about. */
  about: Set<string>
}

function counts(terms: string[]): Map<string, number> {
  const m = new Map<string, number>()
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1)
  return m
}

export interface RankedMemory {
  header: MemoryHeader
  score: number
  /** Share of the query's (idf-weighted) terms the memory matches, itself or by a synonym. */
  coverage: number
}

/**
 * The ranker used when no model is configured: BM25F over name (×3), description (×3) and body
 * (×1, its first 60 lines) with stemming and software synonyms. Only memories that cover enough
 * of the query and score near the best are returned — nothing, when nothing fits.
 */
export async function rankMemoriesOffline(
  query: string,
  candidates: readonly MemoryHeader[],
  limit = MAX_RECALLED,
): Promise<RankedMemory[]> {
  const { weights, own } = queryTerms(query)
  if (!own.length) return []
  const heads = await readHeads(
    candidates.map((c) => c.filePath),
    60,
  )
  const docs: Doc[] = []
  candidates.forEach((header, i) => {
    const head = heads[i]
    if (!head) return
    const name = `${header.name ?? ''} ${header.filename.replace(/\.md$/, '').replace(/[_./-]/g, ' ')}`
    const fields = [
      { terms: counts(termsOf(name)), weight: FIELDS.name },
      { terms: counts(termsOf(header.description ?? '')), weight: FIELDS.description },
      { terms: counts(termsOf(bodyOf(head.content))), weight: FIELDS.body },
    ]
    const length = fields.reduce((n, f) => n + [...f.terms.values()].reduce((a, b) => a + b, 0), 0)
    docs.push({
      header,
      fields,
      length,
      all: new Set(fields.flatMap((f) => [...f.terms.keys()])),
      about: new Set([...fields[0]!.terms.keys(), ...fields[1]!.terms.keys()]),
    })
  })
  if (!docs.length) return []
  const avgLen = docs.reduce((n, d) => n + d.length, 0) / docs.length || 1
  const idf = (t: string) => {
    const n = docs.filter((d) => d.all.has(t)).length
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))
  }
  const raw = new Map([...weights.keys()].map((t) => [t, idf(t)]))
  // A query word no memory has would weigh the most: it counts as an average word instead, so a
  // small memory dir is not judged by the words it cannot contain.
  const inSome = (t: string) => docs.some((d) => d.all.has(t))
  const presentOwn = own.filter(inSome)
  const present = presentOwn.length ? presentOwn : [...raw.keys()].filter(inSome)
  if (!present.length) return []
  const typical = present.reduce((n, t) => n + raw.get(t)!, 0) / present.length
  const idfs = new Map([...raw].map(([t, v]) => [t, inSome(t) ? v : typical]))
  const groupOf = (t: string) => [t, ...(synonymTable().get(t) ?? [])]
  const ownMass = own.reduce((n, t) => n + idfs.get(t)!, 0) || 1
  const scored = docs.map((d) => {
    let score = 0
    for (const [t, w] of weights) {
      const tf = d.fields.reduce((s, f) => s + f.weight * (f.terms.get(t) ?? 0), 0)
      if (!tf) continue
      score += w * idfs.get(t)! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avgLen)))
    }
    // Coverage counts each query term once: matched by itself or (at its weight) by a synonym,
    // in full in the name or description, at half when only the body has it.
    const covered = own.reduce((n, t) => {
      const match = (g: string) =>
        (g === t ? 1 : SYNONYM_WEIGHT) * (d.about.has(g) ? 1 : d.all.has(g) ? BODY_ONLY : 0)
      return n + Math.max(0, ...groupOf(t).map(match)) * idfs.get(t)!
    }, 0)
    return { header: d.header, score, coverage: covered / ownMass }
  })
  const top = Math.max(0, ...scored.map((s) => s.score))
  return scored
    .filter((s) => s.score > 0 && s.coverage >= MIN_COVERAGE && s.score >= MIN_SHARE_OF_TOP * top)
    .sort((a, b) => b.score - a.score || b.header.mtimeMs - a.header.mtimeMs)
    .slice(0, limit)
}
