import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import Database from 'better-sqlite3'
import { startFakeAnthropic, reply, text, type RecordedRequest } from '../test/fake-anthropic/server.js'
import { createModelClient } from '../src-main/core/model/client.js'
import { findRelevantMemories } from '../src-main/core/recall/find-relevant.js'
import { serializeMemoryFile } from '../src-main/core/store/frontmatter.js'
import {
  HELD_OUT,
  MEMORIES,
  QUERIES,
  type LabelledMemory,
  type LabelledQuery,
} from './recall-quality/dataset.js'
import { HARBOR_HELD_OUT, HARBOR_MEMORIES, HARBOR_TUNE } from './recall-quality/harbor-set.js'
import { benchDir, table } from './lib.js'

export interface QualityFigures {
  'recall@5': number
  'precision of returned': number
  'empty when nothing fits': number
  'precision@5': number
  'returned per answerable query': number
}

type Ranked = { q: LabelledQuery; got: string[] }

/** Scores recall against the labels: @5 figures over answerable queries, the rest over all. */
export function score(results: Ranked[]): QualityFigures {
  const answerable = results.filter((r) => r.q.expect.length)
  const unanswerable = results.filter((r) => !r.q.expect.length)
  const hits = (r: Ranked) => r.got.filter((g) => r.q.expect.includes(g)).length
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 1)
  const returned = results.reduce((n, r) => n + r.got.length, 0)
  return {
    'recall@5': mean(answerable.map((r) => hits(r) / Math.min(5, r.q.expect.length))),
    'precision of returned': returned ? results.reduce((n, r) => n + hits(r), 0) / returned : 1,
    'empty when nothing fits': mean(unanswerable.map((r) => (r.got.length ? 0 : 1))),
    'precision@5': mean(answerable.map((r) => hits(r) / 5)),
    'returned per answerable query': mean(answerable.map((r) => r.got.length)),
  }
}

export function writeDataset(dir: string, memories: readonly LabelledMemory[] = MEMORIES): void {
  mkdirSync(dir, { recursive: true })
  const t = Date.UTC(2026, 10, 1) / 1000
  memories.forEach((mem, i) => {
    const path = join(dir, mem.file)
    writeFileSync(path, serializeMemoryFile(mem))
    utimesSync(path, t + i * 3600, t + i * 3600)
  })
}

/**
 * The baseline to beat: SQLite FTS5 over the same three fields with the Porter stemmer, the query's
 * words OR-ed (an AND of every word finds nothing for most sentences), the 5 best by bm25().
 */
function fts5Ranker(memories: readonly LabelledMemory[]): {
  rank: (query: string) => string[]
  close: () => void
} {
  const db = new Database(':memory:')
  db.exec(
    "CREATE VIRTUAL TABLE docs USING fts5(file UNINDEXED, name, description, body, tokenize='porter unicode61')",
  )
  const insert = db.prepare('INSERT INTO docs (file, name, description, body) VALUES (?, ?, ?, ?)')
  for (const m of memories) insert.run(m.file, m.name, m.description, m.body)
  const select = db.prepare('SELECT file FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 5')
  return {
    rank: (query) => {
      const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
      if (!words.length) return []
      return (select.all(words.map((w) => `"${w}"`).join(' OR ')) as { file: string }[]).map((r) => r.file)
    },
    close: () => db.close(),
  }
}

interface LabelledSet {
  name: string
  memories: readonly LabelledMemory[]
  queries: readonly LabelledQuery[]
}

const SETS: LabelledSet[] = [
  { name: 'harbor, held out (never tuned on)', memories: HARBOR_MEMORIES, queries: HARBOR_HELD_OUT },
  { name: 'harbor, tuning half', memories: HARBOR_MEMORIES, queries: HARBOR_TUNE },
  { name: 'original set', memories: MEMORIES, queries: QUERIES },
  { name: 'original, held out', memories: MEMORIES, queries: HELD_OUT },
]

function checkLabels(set: LabelledSet): void {
  const files = new Set(set.memories.map((m) => m.file))
  for (const q of set.queries)
    for (const e of q.expect)
      if (!files.has(e)) throw new Error(`${set.name}: "${q.query}" expects ${e}, not in the set`)
}

/**
 * Memdir's offline ranker and SQLite FTS5 BM25 (Porter) on each labelled set, in the same run; the
 * model selector through a scripted fake as a harness check. `--misses` lists each miss.
 */
export async function benchRecallQuality(verbose = process.argv.includes('--misses')): Promise<void> {
  const { dir, cleanup } = benchDir('recall-quality')
  try {
    const rows: Record<string, string | number>[] = []
    const fmt = (set: string, ranker: string, f: QualityFigures) => ({
      set,
      ranker,
      ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.toFixed(2)])),
    })
    for (const set of SETS) {
      checkLabels(set)
      const memDir = join(dir, set.memories === MEMORIES ? 'original' : 'harbor')
      if (!existsSync(memDir)) writeDataset(memDir, set.memories)
      const memdir: Ranked[] = []
      for (const q of set.queries) {
        const r = await findRelevantMemories(q.query, memDir)
        memdir.push({ q, got: r.memories.map((x) => basename(x.path)) })
      }
      const fts = fts5Ranker(set.memories)
      const bm25 = set.queries.map((q) => ({ q, got: fts.rank(q.query) }))
      fts.close()
      rows.push(
        fmt(set.name, 'memdir offline', score(memdir)),
        fmt(set.name, 'FTS5 bm25 (porter)', score(bm25)),
      )
      if (verbose && !set.name.includes('held out')) {
        for (const r of memdir) {
          const missed = r.q.expect.filter((e) => !r.got.includes(e))
          const extra = r.got.filter((g) => !r.q.expect.includes(g))
          if (missed.length || extra.length)
            console.log(
              `  ${set.name} "${r.q.query}": missed [${missed.join(', ')}] extra [${extra.join(', ')}]`,
            )
        }
      }
    }
    rows.push(
      fmt('original set', 'model (scripted fake: harness check)', await scriptedModel(join(dir, 'original'))),
    )
    const answerable = (qs: readonly LabelledQuery[]) => qs.filter((q) => q.expect.length).length
    console.log(
      `\nrecall-quality — harbor: ${HARBOR_MEMORIES.length} memories, ${HARBOR_TUNE.length} tuning + ${HARBOR_HELD_OUT.length} held-out queries (${HARBOR_HELD_OUT.length - answerable(HARBOR_HELD_OUT)} held out with no answer); original: ${MEMORIES.length} memories, ${QUERIES.length} + ${HELD_OUT.length} queries`,
    )
    table(rows)
  } finally {
    cleanup()
  }
}

/** The fake "model" answers each query with its labels: checks the pipeline around the selector. */
async function scriptedModel(memDir: string): Promise<QualityFigures> {
  const byQuery = new Map(QUERIES.map((q) => [q.query, q.expect]))
  const fake = await startFakeAnthropic([], {
    fallback: {
      kind: 'dynamic',
      respond: (req: RecordedRequest) => {
        const user = JSON.stringify(req.body.messages)
        const query = /Query: (.*?)\\n/.exec(user)?.[1] ?? ''
        return reply(text(JSON.stringify({ selected_memories: byQuery.get(query) ?? [] })))
      },
    },
  })
  try {
    const client = createModelClient(
      { apiKey: 'sk-bench', baseURL: fake.url, selectorModel: 'fake-selector', agentModel: 'fake-agent' },
      { maxRetries: 0 },
    )!
    const out: Ranked[] = []
    for (const q of QUERIES) {
      const r = await findRelevantMemories(q.query, memDir, { client })
      out.push({ q, got: r.memories.map((x) => basename(x.path)) })
    }
    return score(out)
  } finally {
    await fake.close()
  }
}
