import type { StalenessBasis } from '../staleness/recall-notes.js'
import { recallInjections } from './inject.js'
import { findRelevantMemories, type RecallOptions, type RecallResult } from './find-relevant.js'

export const SESSION_RECALL_BUDGET_BYTES = 60 * 1024

export interface RecallShape {
  at: number
  query: string
  mode: RecallResult['mode']
  candidates: number
  selected: number
  empty: boolean
}

export type SurfaceOutcome =
  | { skipped: true; reason: string }
  | {
      skipped: false
      result: RecallResult
      injections: string[]
      /** The memories the injections show (all of the result's that were still there, and fitted). */
      injected: string[]
      bytes: number
    }

/**
 * Per-session recall state: what was already surfaced, how many bytes were injected (stops at
 * 60 KiB), and a local record of each recall's shape for the UI (no telemetry leaves the machine).
 */
export class RecallSession {
  readonly surfaced = new Set<string>()
  readonly shapes: RecallShape[] = []
  injectedBytes = 0

  constructor(
    readonly memoryDir: string,
    private readonly opts: Omit<RecallOptions, 'alreadySurfaced' | 'recentTools'> & {
      budgetBytes?: number
      now?: () => number
      /** The project's folder and the user's marks: recalled memories get their code-staleness line. */
      staleness?: StalenessBasis
    } = {},
  ) {}

  async surface(query: string, recentTools: readonly string[] = []): Promise<SurfaceOutcome> {
    if (query.trim().split(/\s+/).filter(Boolean).length < 2)
      return { skipped: true, reason: 'single-word prompt' }
    const budget = this.opts.budgetBytes ?? SESSION_RECALL_BUDGET_BYTES
    if (this.injectedBytes >= budget)
      return { skipped: true, reason: 'session recall budget (60 KiB) used up' }
    const now = this.opts.now?.() ?? Date.now()
    const result = await findRelevantMemories(query, this.memoryDir, {
      ...this.opts,
      alreadySurfaced: this.surfaced,
      recentTools,
    })
    const injected = await recallInjections(result.memories, now, this.opts.staleness, this.opts.scanner)
    const injections = injected.map((i) => i.text)
    const bytes = injections.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 0)
    this.injectedBytes += bytes
    // Only what was shown: a memory left out for room (see recallInjections) may come at a later prompt.
    const shown = injected.map((i) => i.path)
    for (const path of shown) this.surfaced.add(path)
    this.shapes.push({
      at: now,
      query,
      mode: result.mode,
      candidates: result.candidates,
      selected: result.memories.length,
      empty: result.memories.length === 0,
    })
    return { skipped: false, result, injections, injected: shown, bytes }
  }
}
