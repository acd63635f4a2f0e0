import { Charset, Index } from 'flexsearch'
import { MAX_SEARCH_HITS } from '../../../src-shared/limits.js'
import {
  characterPairs,
  SPACELESS_CLASS,
  SPACELESS_LETTER,
  hasSpacelessScript,
} from '../../../src-shared/spaceless-scripts.js'
import { join } from 'node:path'
import { bodyOf, parseMemoryHeaderFields } from './frontmatter.js'
import { isMemoryFileName } from './memory-header.js'
import { listMemoryFiles, readTextFiles, type Scanner } from './scan.js'
import { SerialQueue } from './serial-queue.js'

/** A memory as search sees it: what the list shows plus its body. */
interface SearchDoc {
  id: string
  name: string
  description: string
  path: string
  body: string
}

export interface SearchHit {
  relPath: string
  score: number
  /** The words of the memory that matched (for highlighting). */
  terms: string[]
  /** A line of the body around the first match, when the body matched. */
  snippet?: string
}

const MAX_BYTES = 256 * 1024
/** Hits that come with their matched words and a snippet (the rest: path and rank only). */
const DETAILED = 120
const SNIPPET = 90

/** One source of memories: a dir, and the prefix its relPaths get in the list (`@agent/`). */
export interface SearchSource {
  dir: string
  prefix: string
}

/** What search keeps of a memory besides the index: the text its snippets and highlights come from. */
interface Kept {
  /** Name, description, path and body, lowercased. */
  lower: string
  body: string
  bodyStart: number
}

/**
 * Full-text search over every memory's name, description, path and body (FlexSearch, every word
 * matched by its prefixes, all query words required). A memory's fields are indexed as one text,
 * name first: FlexSearch ranks a word by where it stands, so a name match comes before a body match.
 * Built from the files in one batch, then kept current file by file as the watcher reports changes.
 */
export class MemorySearchIndex {
  private index = new Index({ tokenize: 'forward', encoder: Charset.Normalize })
  private kept = new Map<string, Kept>()
  private ready?: Promise<void>
  /** Updates apply in the order they were asked for (an older read finishing last undid a newer one). */
  private readonly updates = new SerialQueue()

  constructor(
    private readonly sources: readonly SearchSource[],
    private readonly scanner?: Scanner,
  ) {}

  private docOf(relPath: string, text: string): SearchDoc {
    const h = parseMemoryHeaderFields(text)
    return {
      id: relPath,
      name: h.name ?? relPath.split('/').pop()!.replace(/\.md$/, ''),
      description: h.description ?? '',
      path: relPath.replace(/[_./-]/g, ' '),
      body: bodyOf(text),
    }
  }

  private add(d: SearchDoc): void {
    const head = `${d.name}\n${d.description}\n${d.path}\n`
    const text = head + d.body
    this.index.add(d.id, spacelessPairs(text))
    this.kept.set(d.id, { lower: text.toLowerCase(), body: d.body, bodyStart: head.toLowerCase().length })
  }

  private async read(source: SearchSource, rels: string[]): Promise<(SearchDoc | undefined)[]> {
    const got = await readTextFiles(
      rels.map((r) => join(source.dir, r)),
      MAX_BYTES,
      this.scanner,
    )
    return got.map((r, i) => (r.kind === 'text' ? this.docOf(source.prefix + rels[i], r.text) : undefined))
  }

  /** Builds the index once; later calls wait for the same build. */
  load(): Promise<void> {
    this.ready ??= (async () => {
      for (const source of this.sources) {
        const docs = await this.read(source, await listMemoryFiles(source.dir, this.scanner))
        for (const d of docs) if (d) this.add(d)
      }
    })()
    return this.ready
  }

  /** Re-reads these files of the first source (relative paths); a file that is gone leaves the index. */
  update(relPaths: Iterable<string>): Promise<void> {
    return this.updates.run(() => this.reread(relPaths))
  }

  private async reread(relPaths: Iterable<string>): Promise<void> {
    await this.load()
    const source = this.sources[0]
    if (!source) return
    const rels = [...new Set(relPaths)].filter(isMemoryFileName)
    const docs = rels.length ? await this.read(source, rels) : []
    rels.forEach((rel, i) => {
      const id = source.prefix + rel
      if (this.kept.delete(id)) this.index.remove(id)
      const d = docs[i]
      if (d) this.add(d)
    })
  }

  /** The best `limit` memories holding every word of `query` (each as a word or a word's start). */
  async search(query: string, limit = MAX_SEARCH_HITS): Promise<SearchHit[]> {
    await this.load()
    const words = queryWords(query)
    if (!words.length) return []
    const ids = this.index.search(spacelessPairs(query), { limit }) as string[]
    return ids.map((id, rank) => {
      // Highlights and snippets for the first screens of hits; further down the list highlights the
      // query's own words. Working them out for all 500 was most of a keystroke's search time.
      if (rank >= DETAILED) return { relPath: id, score: ids.length - rank, terms: [] }
      const kept = this.kept.get(id)!
      const terms = matchedWords(kept.lower, words)
      const inBody = matchedWords(kept.lower, words, 1, kept.bodyStart).length > 0
      return {
        relPath: id,
        score: ids.length - rank,
        terms,
        ...(inBody ? { snippet: snippetOf(kept, terms) } : {}),
      }
    })
  }

  get size(): number {
    return this.kept.size
  }
}

const WORD = /[\p{L}\p{N}]+/gu
const NON_ASCII = /[\u0080-\uffff]/
const SPACELESS_RUN = new RegExp(`[${SPACELESS_CLASS}]{2,}`, 'gu')

/**
 * Text as the index reads it: a run of a script written without spaces (Chinese, Japanese, Korean,
 * Thai…; src-shared/spaceless-scripts.ts) as its pairs of characters, each a word. As one word,
 * "本番環境へのデプロイ" was found by 本番 (its start) and never by 環境; as pairs, a query's own
 * pairs find it, and one character finds the pairs it starts.
 */
function spacelessPairs(text: string): string {
  return text.replace(SPACELESS_RUN, (run) => ` ${characterPairs(run).join(' ')} `)
}

function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(WORD) ?? [])]
}

/**
 * The words of `lower` (a memory's text, lowercased) that a query word starts, for highlighting:
 * "flam" → "flamingo". Found with indexOf, not by splitting the text: this runs for every hit.
 * A query word the index matched only through accent folding ("uber" for "über") is itself kept.
 */
function matchedWords(lower: string, words: readonly string[], max = 12, from = 0): string[] {
  const found = new Set<string>()
  for (const q of words) {
    let hitOne = false
    for (let at = lower.indexOf(q, from); at >= 0 && found.size < max; at = lower.indexOf(q, at + q.length)) {
      if (at > from && startsMidWord(lower, at)) continue
      WORD_AT.lastIndex = at + q.length
      const rest = hasSpacelessScript(q)
        ? ''
        : (WORD_AT.exec(lower)?.[0] ?? '').split(SPACELESS_LETTER, 1)[0]!
      found.add(q + rest)
      hitOne = true
    }
    // Accent folding can only matter where the text has non-ASCII letters.
    if (!hitOne && NON_ASCII.test(lower))
      for (const w of foldedMatches(from ? lower.slice(from) : lower, q)) found.add(w)
  }
  return [...found].slice(0, max)
}

/** The rest of a word from `lastIndex` on (cut where text without spaces between words begins). */
const WORD_AT = /[\p{L}\p{N}]*/uy
const MID_WORD = /[\p{L}\p{N}]/u
const startsMidWord = (lower: string, at: number) =>
  MID_WORD.test(lower[at - 1]!) && !hasSpacelessScript(lower[at - 1]!)

const fold = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '')

/** Words of `lower` that start with `q` once accents are folded away on both sides (rare: a word-by-word pass). */
function foldedMatches(lower: string, q: string): string[] {
  const f = fold(q)
  return (lower.match(WORD) ?? []).filter((w) => fold(w).startsWith(f))
}

/** The body around the first matched word, on one line. */
function snippetOf({ body, lower, bodyStart }: Kept, terms: string[]): string {
  let at = body.length
  for (const t of terms) {
    const i = lower.indexOf(t, bodyStart)
    if (i >= 0 && i - bodyStart < at) at = i - bodyStart
  }
  const start = Math.max(0, at - SNIPPET / 3)
  const text = body
    .slice(start, start + SNIPPET)
    .replace(/\s+/g, ' ')
    .trim()
  return `${start > 0 ? '…' : ''}${text}${start + SNIPPET < body.length ? '…' : ''}`
}
