import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { startFakeAnthropic, reply, text, type RecordedRequest } from '../test/fake-anthropic/server.js'
import { createModelClient } from '../src-main/core/model/client.js'
import { findRelevantMemories } from '../src-main/core/recall/find-relevant.js'
import { serializeMemoryFile } from '../src-main/core/store/frontmatter.js'
import { HELD_OUT, MEMORIES, QUERIES, type LabelledQuery } from './recall-quality/dataset.js'
import { benchDir, table } from './lib.js'

export interface QualityFigures {
  'precision@5': number
  'recall@5': number
  'precision of returned': number
  'empty when nothing fits': number
  returned: number
}

/** Scores recall against the labels: @5 figures over answerable queries, the rest over all. */
export function score(results: { q: LabelledQuery; got: string[] }[]): QualityFigures {
  const answerable = results.filter((r) => r.q.expect.length)
  const unanswerable = results.filter((r) => !r.q.expect.length)
  const hits = (r: { q: LabelledQuery; got: string[] }) => r.got.filter((g) => r.q.expect.includes(g)).length
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 1)
  const returned = results.reduce((n, r) => n + r.got.length, 0)
  return {
    'precision@5': mean(answerable.map((r) => hits(r) / 5)),
    'recall@5': mean(answerable.map((r) => hits(r) / r.q.expect.length)),
    'precision of returned': returned ? results.reduce((n, r) => n + hits(r), 0) / returned : 1,
    'empty when nothing fits': mean(unanswerable.map((r) => (r.got.length ? 0 : 1))),
    returned,
  }
}

export function writeDataset(dir: string): void {
  mkdirSync(dir, { recursive: true })
  const t = Date.UTC(2026, 10, 1) / 1000
  MEMORIES.forEach((mem, i) => {
    const path = join(dir, mem.file)
    writeFileSync(path, serializeMemoryFile(mem))
    utimesSync(path, t + i * 3600, t + i * 3600)
  })
}

/** Offline ranker vs the labels; the model selector through a scripted fake as a harness check. */
export async function benchRecallQuality(): Promise<void> {
  const { dir, cleanup } = benchDir('recall-quality')
  try {
    writeDataset(dir)
    const rank = async (qs: LabelledQuery[]) => {
      const out: { q: LabelledQuery; got: string[] }[] = []
      for (const q of qs) {
        const r = await findRelevantMemories(q.query, dir)
        out.push({ q, got: r.memories.map((x) => basename(x.path)) })
      }
      return out
    }
    const offline = await rank(QUERIES)
    const heldOut = await rank(HELD_OUT)
    // The fake "model" answers each query with its labelled memories: this checks the pipeline
    // around the selector (request, parsing, filtering), not any model's judgement.
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
    const client = createModelClient(
      { apiKey: 'sk-bench', baseURL: fake.url, selectorModel: 'fake-selector', agentModel: 'fake-agent' },
      { maxRetries: 0 },
    )!
    const model: { q: LabelledQuery; got: string[] }[] = []
    for (const q of QUERIES) {
      const r = await findRelevantMemories(q.query, dir, { client })
      model.push({ q, got: r.memories.map((x) => basename(x.path)) })
    }
    await fake.close()
    const fmt = (name: string, f: QualityFigures) => ({
      ranker: name,
      ...Object.fromEntries(
        Object.entries(f).map(([k, v]) => [k, k === 'returned' ? v : (v as number).toFixed(2)]),
      ),
    })
    console.log(
      `\nrecall-quality — ${MEMORIES.length} memories, ${QUERIES.length} queries (${QUERIES.filter((q) => !q.expect.length).length} with no answer)`,
    )
    table([
      fmt('offline', score(offline)),
      fmt(`offline, ${HELD_OUT.length} held-out queries`, score(heldOut)),
      fmt('model (scripted fake: harness check)', score(model)),
    ])
    const misses = [...offline, ...heldOut].filter((r) => r.q.expect.some((e) => !r.got.includes(e)))
    for (const r of misses)
      console.log(`  missed: "${r.q.query}" → got [${r.got.join(', ')}], wanted [${r.q.expect.join(', ')}]`)
    for (const r of [...offline, ...heldOut]) {
      const extra = r.got.filter((g) => !r.q.expect.includes(g))
      if (extra.length) console.log(`  also returned for "${r.q.query}": [${extra.join(', ')}]`)
    }
  } finally {
    cleanup()
  }
}
