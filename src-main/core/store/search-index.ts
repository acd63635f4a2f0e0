import MiniSearch from 'minisearch'
import { join } from 'node:path'
import { bodyOf, parseMemoryHeaderFields } from './frontmatter.js'
import { isMemoryFileName } from './memory-header.js'
import { listMemoryFiles, readTextFiles, type Scanner } from './scan.js'

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
const SNIPPET = 90

/** One source of memories: a dir, and the prefix its relPaths get in the list (`@agent/`). */
export interface SearchSource {
  dir: string
  prefix: string
}

/**
 * Full-text search over every memory's name, description, path and body (MiniSearch: prefix and
 * light fuzzy matching, name and description ranked above body). Built from the files in one
 * batch, then kept current file by file as the watcher reports changes.
 */
export class MemorySearchIndex {
  private index = this.fresh()
  private bodies = new Map<string, string>()
  private ready?: Promise<void>

  constructor(
    private readonly sources: readonly SearchSource[],
    private readonly scanner?: Scanner,
  ) {}

  private fresh() {
    return new MiniSearch<SearchDoc>({
      fields: ['name', 'description', 'path', 'body'],
      searchOptions: {
        boost: { name: 3, description: 2, path: 1.5, body: 1 },
        prefix: true,
        fuzzy: (term) => (term.length > 4 ? 0.2 : 0),
        combineWith: 'AND',
      },
    })
  }

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
        const docs = (await this.read(source, await listMemoryFiles(source.dir, this.scanner))).filter(
          (d): d is SearchDoc => d !== undefined,
        )
        for (const d of docs) this.bodies.set(d.id, d.body)
        this.index.addAll(docs)
      }
    })()
    return this.ready
  }

  /** Re-reads these files of the first source (relative paths); a file that is gone leaves the index. */
  async update(relPaths: Iterable<string>): Promise<void> {
    await this.load()
    const source = this.sources[0]
    if (!source) return
    const rels = [...new Set(relPaths)].filter(isMemoryFileName)
    const docs = rels.length ? await this.read(source, rels) : []
    rels.forEach((rel, i) => {
      const id = source.prefix + rel
      if (this.index.has(id)) this.index.discard(id)
      this.bodies.delete(id)
      const d = docs[i]
      if (d) {
        this.index.add(d)
        this.bodies.set(id, d.body)
      }
    })
  }

  async search(query: string, limit = 500): Promise<SearchHit[]> {
    await this.load()
    if (!query.trim()) return []
    return this.index
      .search(query)
      .slice(0, limit)
      .map((r) => {
        const id = String(r.id)
        const inBody = Object.values(r.match).some((fields) => fields.includes('body'))
        return {
          relPath: id,
          score: r.score,
          terms: r.terms,
          ...(inBody ? { snippet: snippetOf(this.bodies.get(id) ?? '', r.terms) } : {}),
        }
      })
  }

  get size(): number {
    return this.index.documentCount
  }
}

/** The body around the first matched word, on one line. */
function snippetOf(body: string, terms: string[]): string {
  const lower = body.toLowerCase()
  const at = Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), body.length)
  const start = Math.max(0, at - SNIPPET / 3)
  const text = body
    .slice(start, start + SNIPPET)
    .replace(/\s+/g, ' ')
    .trim()
  return `${start > 0 ? '…' : ''}${text}${start + SNIPPET < body.length ? '…' : ''}`
}
