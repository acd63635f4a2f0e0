import { MemdirError } from '../../../src-shared/errors.js'
import { relative, sep } from 'node:path'
import type { RecallPreview } from '../../../src-shared/types.js'
import type { ModelClient } from '../../core/model/client.js'
import { findRelevantMemories, type RecallResult } from '../../core/recall/find-relevant.js'
import { memoryAge, memoryAgeDays, memoryFreshnessText } from '../../core/recall/freshness.js'
import { buildRecallInjection } from '../../core/recall/inject.js'
import type { StalenessBasis } from '../../core/staleness/recall-notes.js'
import type { TermSource } from '../../core/recall/term-source.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import type { Scanner } from '../../core/store/scan.js'

const toPosix = (p: string) => p.split(sep).join('/')

export type RecallRun = RecallPreview & Pick<RecallResult, 'memories' | 'rawSelection'>

/** Recall for a query with the exact injected text (the UI's Recall view, `memdir recall`, the hooks). */
export async function recallPreview(
  memoryDir: string,
  query: string,
  opts: {
    client?: ModelClient
    recentTools?: string[]
    scan?: (memoryDir: string) => Promise<readonly MemoryHeader[]>
    alreadySurfaced?: Iterable<string>
    now?: number
    signal?: AbortSignal
    offlineFallback?: boolean
    /** The project's folder and the user's marks: recalled memories get their code-staleness line. */
    staleness?: StalenessBasis
    termCache?: TermSource
    /** Where memory files are read (the entry point's choice). */
    scanner?: Scanner
  } = {},
): Promise<RecallRun> {
  if (!query.trim()) throw new MemdirError('INVALID_INPUT', 'Type a query to preview recall.')
  const now = opts.now ?? Date.now()
  const r = await findRelevantMemories(query, memoryDir, {
    client: opts.client,
    recentTools: opts.recentTools ?? [],
    scan: opts.scan,
    alreadySurfaced: opts.alreadySurfaced,
    signal: opts.signal,
    offlineFallback: opts.offlineFallback,
    termCache: opts.termCache,
    scanner: opts.scanner,
  })
  return {
    mode: r.mode,
    note: r.note,
    error: r.error,
    candidates: r.candidates,
    memories: r.memories,
    rawSelection: r.rawSelection,
    selected: r.memories.map((m) => ({
      path: m.path,
      relPath: toPosix(relative(memoryDir, m.path)),
      age: memoryAge(m.mtimeMs, now),
      ageDays: memoryAgeDays(m.mtimeMs, now),
      freshness: memoryFreshnessText(m.mtimeMs, now),
    })),
    injections: await buildRecallInjection(r.memories, now, opts.staleness, opts.scanner),
  }
}
