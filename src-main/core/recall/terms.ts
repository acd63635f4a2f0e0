import { stemmer } from 'stemmer'
import { COMPOUND_PAIRS, STOPWORDS, SYNONYM_GROUPS } from './vocabulary.js'
import { characterPairs, SPACELESS_CLASS, hasSpacelessScript } from '../../../src-shared/spaceless-scripts.js'
import { baseForm } from './word-forms.js'

const stems = new Map<string, string>()
// Once per distinct word: a word's forms that Porter keeps apart stem alike (word-forms.ts).
const stem = (w: string) => {
  let s = stems.get(w)
  if (s === undefined) stems.set(w, (s = stemmer(baseForm(w))))
  return s
}

// eslint-disable-next-line no-control-regex -- the ASCII range is the point
const NON_ASCII = /[^\x00-\x7f]/
const WORD = /[\p{L}\p{N}]+/gu
// Accents split off by NFKD go, so "résumé" is one word, "resume". Kana voicing marks stay (NFC
// puts them back): パス (path) and バス (bus) are different words.
const MARKS = /(?![\u3099\u309a])\p{M}/gu

/**
 * The longest word that is a term. Longer runs of letters and digits (a pasted blob, a hash of a
 * hash) are no word anyone looks for, and a query term becomes part of a regular expression
 * (packedTermMatcher), which V8 refuses past ~32,000 characters of one literal: such a prompt made
 * recall fail outright.
 */
export const MAX_TERM_LENGTH = 200

/**
 * Lowercased, accents folded, stopwords and words over MAX_TERM_LENGTH dropped, Porter-stemmed
 * ("Translations" → "translat") after word-forms.ts; a camel-case identifier is also its words
 * (addIdentifierParts), and two words written apart for one ("log in") are also that one (addWords).
 */
export function tokenize(text: string): string[] {
  const out: string[] = []
  // Most texts have no camel-case identifier: one test, and their words are read as before.
  if (CAMEL.test(text)) for (const w of text.match(ASCII_WORD_ANY_CASE) ?? []) addIdentifierParts(out, w)
  const lower = text.toLowerCase()
  // ASCII text (most memories) needs no folding, and a plain class matches what the Unicode one would.
  if (!NON_ASCII.test(lower)) {
    addWords(out, lower.match(ASCII_WORD) ?? [])
    return out
  }
  // NFC again after the marks go: Hangul, which NFKD splits into letters, is syllables again.
  const folded = lower.normalize('NFKD').replace(MARKS, '').normalize('NFC')
  const words: string[] = []
  for (const w of folded.match(WORD) ?? []) {
    // Scripts written without spaces (src-shared/spaceless-scripts.ts): pairs of characters are the terms.
    if (!hasSpacelessScript(w)) words.push(w)
    else {
      addWords(out, words.splice(0))
      for (const part of w.match(SPACELESS_RUN_OR_OTHER)!) {
        if (hasSpacelessScript(part)) addBigrams(out, part)
        else addWord(out, part)
      }
    }
  }
  addWords(out, words)
  return out
}

/** Words in text order: each one's term, and after it the term of a compound it starts (COMPOUND_PAIRS). */
function addWords(out: string[], words: readonly string[]): void {
  for (let i = 0; i < words.length; i++) {
    addWord(out, words[i]!)
    const compound = compoundAt(words, i)
    if (compound) out.push(compound.term)
  }
}

interface Compound {
  term: string
  /** The terms of its words (stopwords left out). */
  words: string[]
}
/** Per second word, the compounds it ends: by the first word as written (`=log in`), or by its stem. */
type CompoundEnds = { exact: Map<string, Compound>; stemmed: Map<string, Compound> }

let compounds: Map<string, CompoundEnds> | undefined

function compoundTable(): Map<string, CompoundEnds> {
  if (compounds) return compounds
  compounds = new Map()
  for (const p of COMPOUND_PAIRS) {
    const exact = p.startsWith('=')
    const [a, b] = (exact ? p.slice(1) : p).split(' ') as [string, string]
    const words: string[] = []
    addWord(words, a)
    addWord(words, b)
    let ends = compounds.get(b)
    if (!ends) compounds.set(b, (ends = { exact: new Map(), stemmed: new Map() }))
    if (exact) ends.exact.set(a, { term: stem(a + b), words })
    else ends.stemmed.set(stem(a), { term: stem(a + b), words })
  }
  return compounds
}

/** The compound that `words[i]` and the word after it are written apart for, if any. */
function compoundAt(words: readonly string[], i: number): Compound | undefined {
  // Only a handful of words end a compound: the first word is looked up for those.
  const ends = compoundTable().get(words[i + 1]!)
  return ends && (ends.exact.get(words[i]!) ?? ends.stemmed.get(stem(words[i]!)))
}

/**
 * Per compound written apart in `text` ("log in"), keyed by its term (login), the terms of its
 * words that are not stopwords (log): a query asks about the compound, and its words only stand
 * for it (offline-ranker.ts queryTerms), as an identifier's do.
 */
export function compoundWords(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  const words = text.toLowerCase().match(WORD) ?? []
  for (let i = 0; i + 1 < words.length; i++) {
    const c = compoundAt(words, i)
    if (c) out.set(c.term, c.words)
  }
  return out
}

const ASCII_WORD_ANY_CASE = /[A-Za-z0-9]+/g
const ASCII_WORD = /[a-z0-9]+/g
const CAMEL = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/
// Where an identifier's words meet: `ordersRepo`, `OrdersRepo`, `HTTPServer`.
const CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/

/**
 * An identifier written in camel case (`OrdersRepository`, `useAuthToken`) is its words too, so
 * that it and the words written apart ("the orders repository") find each other; the identifier
 * stays a term of its own (`PagerDuty` is found as "pagerduty"). Split only when every part has
 * three letters or more: `iOS` and `macOS` are names, not "i" or "mac" and "os".
 */
function addIdentifierParts(out: string[], w: string): void {
  // A run past MAX_TERM_LENGTH is a blob (base64, a hash), not an identifier: no words in it.
  if (w.length > MAX_TERM_LENGTH || !CAMEL.test(w)) return
  const parts = w.split(CAMEL_BOUNDARY)
  if (parts.length > 1 && parts.every((p) => p.length >= 3))
    for (const p of parts) addWord(out, p.toLowerCase())
}

/**
 * Per camel-case identifier in `text`, keyed by its own term, the terms of its words
 * (`OrdersRepository` → orders, repository): a query asks about the identifier, and its words
 * only stand for it (offline-ranker.ts queryTerms).
 */
export function identifierWords(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  if (!CAMEL.test(text)) return out
  for (const w of text.match(ASCII_WORD_ANY_CASE) ?? []) {
    const parts: string[] = []
    addIdentifierParts(parts, w)
    const whole: string[] = []
    addWord(whole, w.toLowerCase())
    if (parts.length && whole.length) out.set(whole[0]!, parts)
  }
  return out
}

const addWord = (out: string[], w: string) => {
  if (w.length > 1 && w.length <= MAX_TERM_LENGTH && !STOPWORDS.has(w)) out.push(stem(w))
}

// Pairs stay within one script: Japanese hiragana is mostly grammar (particles, verb endings: の,
// には, どうすればいい), which would outnumber a question's few content words, so it is left out.
const HIRAGANA = /^\p{Script=Hiragana}/u
const SPACELESS_RUN_OR_OTHER = new RegExp(
  `[\\p{Script=Han}\\p{Script=Katakana}\\u30fc]+|\\p{Script=Hiragana}+|\\p{Script=Hangul}+|\\p{Script=Thai}+|\\p{Script=Lao}+|\\p{Script=Khmer}+|\\p{Script=Myanmar}+|[^${SPACELESS_CLASS}]+`,
  'gu',
)

function addBigrams(out: string[], run: string) {
  if (!HIRAGANA.test(run)) out.push(...characterPairs(run))
}

let synonyms: Map<string, string[]> | undefined

const isEntry = (e: unknown): e is [string, string[]] =>
  Array.isArray(e) &&
  e.length === 2 &&
  typeof e[0] === 'string' &&
  Array.isArray(e[1]) &&
  e[1].every((s) => typeof s === 'string')

/**
 * The table as an earlier run of the same termsVersion built it (kept in the term cache), so this
 * run need not stem the vocabulary; anything malformed is ignored and the table is built instead.
 */
export function seedSynonymTable(entries: readonly unknown[]): void {
  if (!synonyms && entries.length && entries.every(isEntry)) synonyms = new Map(entries)
}

/** Stemmed term (or two-word phrase) → the other terms of its group. */
export function synonymTable(): Map<string, string[]> {
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
export function termsOf(text: string): string[] {
  const words = tokenize(text)
  const table = synonymTable()
  const out = [...words]
  for (let i = 0; i + 1 < words.length; i++) {
    const pair = `${words[i]} ${words[i + 1]}`
    if (table.has(pair)) out.push(pair)
  }
  return out
}

/**
 * A field's terms packed in one string, `|term*count|…|`. Terms are letters, digits and single
 * spaces, so `|term*` finds exactly one entry. One flat string per field is what the term cache
 * stores and what ranking reads: no map per memory to build, parse or collect.
 */
export interface PackedTerms {
  text: string
  /** How many terms, repeats included (the field's length for BM25). */
  total: number
}

export function packTerms(terms: readonly string[]): PackedTerms {
  const counts = new Map<string, number>()
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1)
  let text = '|'
  for (const [t, n] of counts) text += `${t}*${n}|`
  return { text, total: terms.length }
}

/** Each term of a memory's packed name, description and body, with its count in each. */
export function fieldCounts(
  packedFields: readonly [string, string, string],
): Map<string, [number, number, number]> {
  const counts = new Map<string, [number, number, number]>()
  packedFields.forEach((packed, field) => {
    for (const piece of packed.split('|')) {
      const star = piece.lastIndexOf('*')
      if (star <= 0) continue
      const term = piece.slice(0, star)
      let c = counts.get(term)
      if (!c) counts.set(term, (c = [0, 0, 0]))
      c[field] = Number(piece.slice(star + 1))
    }
  })
  return counts
}

/**
 * Finds the given terms in packed fields: each match has the term in group 1 and its count in
 * group 2. One native regex pass per field does what a lookup per term would do in JavaScript.
 */
export function packedTermMatcher(terms: readonly string[]): RegExp {
  const alternatives = terms.map((t) => t.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|')
  return new RegExp(`\\|(${alternatives})\\*(\\d+)`, 'g')
}

let version: string | undefined

/**
 * Changes whenever the terms a text yields could: the vocabulary, the stemmer (a few probe words)
 * and the packing format (the leading number: bump it when this file changes what it yields).
 * Cached terms of another version are recomputed. The version is that text itself, not a hash
 * of it: comparing two strings is native, where hashing 3 KB in a cold process costs milliseconds.
 */
export function termsVersion(): string {
  version ??= `10:${JSON.stringify([
    [...STOPWORDS],
    SYNONYM_GROUPS,
    COMPOUND_PAIRS,
    ['relational', 'generalizations', 'hopefulness', 'running'].map(stemmer),
  ])}`
  return version
}
