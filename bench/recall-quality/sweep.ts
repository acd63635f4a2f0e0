import { basename, join } from 'node:path'
import { rankMemoriesOffline, type Tuning } from '../../src-main/core/recall/offline-ranker.js'
import { type MemoryHeader, scanMemoryFiles } from '../../src-main/core/store/scan.js'
import { benchDir } from '../lib.js'
import { score, writeDataset, type QualityFigures } from '../recall-quality.js'
import { MEMORIES, QUERIES, type LabelledQuery } from './dataset.js'
import { HARBOR_MEMORIES, HARBOR_TUNE } from './harbor-set.js'

/**
 * How the offline ranker's cut-offs (TUNING) were tuned: a grid of them, scored on the tuning queries
 * only (harbor's even half and the original set's main queries). The held-out queries are never
 * loaded here. Run: node --import tsx bench/recall-quality/sweep.ts
 */
const { dir, cleanup } = benchDir('recall-sweep')
try {
  const sets = [
    { memories: HARBOR_MEMORIES, queries: HARBOR_TUNE, dir: join(dir, 'harbor') },
    { memories: MEMORIES, queries: QUERIES, dir: join(dir, 'original') },
  ]
  const headers: MemoryHeader[][] = []
  for (const s of sets) {
    writeDataset(s.dir, s.memories)
    headers.push(await scanMemoryFiles(s.dir, { limit: Infinity }))
  }
  const grid = {
    minCoverage: [0.25, 0.3, 0.35, 0.4],
    minShareOfTop: [0.3, 0.4, 0.5, 0.6, 0.7],
    minOwnCoverage: [0.1, 0.15, 0.2, 0.3],
    absentWeight: [0.5, 1],
  }
  const rows: { config: string; recall: number; precision: number; empty: number; objective: number }[] = []
  for (const minCoverage of grid.minCoverage)
    for (const minShareOfTop of grid.minShareOfTop)
      for (const minOwnCoverage of grid.minOwnCoverage)
        for (const absentWeight of grid.absentWeight) {
          const tuning: Partial<Tuning> = { minCoverage, minShareOfTop, minOwnCoverage, absentWeight }
          const figures: QualityFigures[] = []
          for (const [i, s] of sets.entries()) {
            const results: { q: LabelledQuery; got: string[] }[] = []
            for (const q of s.queries) {
              const ranked = await rankMemoriesOffline(q.query, headers[i]!, { tuning })
              results.push({ q, got: ranked.map((r) => basename(r.header.filePath)) })
            }
            figures.push(score(results))
          }
          const mean = (k: 'recall@5' | 'precision of returned' | 'empty when nothing fits') =>
            figures.reduce((n, f) => n + f[k], 0) / figures.length
          const recall = mean('recall@5')
          const precision = mean('precision of returned')
          const empty = mean('empty when nothing fits')
          rows.push({
            config: JSON.stringify({ minCoverage, minShareOfTop, minOwnCoverage, absentWeight }),
            recall,
            precision,
            empty,
            // Recall first, as the goals do, but not bought with precision below 0.8 or noise.
            objective: recall + 0.5 * Math.min(precision, 0.8) + 0.5 * Math.min(empty, 0.9),
          })
        }
  rows.sort((a, b) => b.objective - a.objective)
  for (const r of rows.slice(0, 12))
    console.log(
      r.objective.toFixed(3),
      r.recall.toFixed(2),
      r.precision.toFixed(2),
      r.empty.toFixed(2),
      r.config,
    )
} finally {
  cleanup()
}
