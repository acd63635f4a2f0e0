import { relative, sep } from 'node:path'
import type { PromptPreview, RecallPreview } from '../../src-shared/types.js'
import type { ModelClient } from '../core/model/client.js'
import type { ProjectContext } from '../core/paths/context.js'
import { loadMemoryPromptDetailed } from '../core/prompt/load.js'
import { findRelevantMemories, type RecallResult } from '../core/recall/find-relevant.js'
import { memoryAge, memoryFreshnessText } from '../core/recall/freshness.js'
import { buildRecallInjection } from '../core/recall/inject.js'
import type { TermCache } from '../core/recall/term-cache.js'
import type { MemoryFormat } from '../core/store/frontmatter.js'
import type { MemoryHeader } from '../core/store/memory-header.js'
import { preferredMemoryFormat } from '../core/store/memory-format.js'
import { scanMemoryFiles } from '../core/store/scan.js'
import { loadAppSettings } from './app-data.js'
import { HostError } from './errors.js'

const toPosix = (p: string) => p.split(sep).join('/')

/** The memory prompt section for a mode (the UI's Prompt view and `memdir prompt`). */
export async function promptPreview(
  ctx: ProjectContext,
  mode: PromptPreview['mode'] | undefined,
  format?: MemoryFormat,
): Promise<PromptPreview & { memoryDir?: string }> {
  const r = await loadMemoryPromptDetailed(ctx, { mode, ensureDir: false, format })
  return r.enabled
    ? { mode: r.mode, enabled: true, prompt: r.prompt, memoryDir: r.memoryDir }
    : { mode: mode ?? 'normal', enabled: false, prompt: null, reason: r.reason }
}

export type RecallRun = RecallPreview & Pick<RecallResult, 'memories' | 'rawSelection'>

/** Recall for a query with the exact injected text (the UI's Recall view, `memdir recall`, the hooks). */
export async function recallPreview(
  memoryDir: string,
  query: string,
  opts: {
    client?: ModelClient
    recentTools?: string[]
    scan?: (memoryDir: string) => Promise<MemoryHeader[]>
    alreadySurfaced?: Iterable<string>
    now?: number
    signal?: AbortSignal
    offlineFallback?: boolean
    /** The project's folder: recalled memories get their code-staleness line. */
    projectRoot?: string
    termCache?: TermCache
  } = {},
): Promise<RecallRun> {
  if (!query.trim()) throw new HostError('INVALID_INPUT', 'Type a query to preview recall.')
  const now = opts.now ?? Date.now()
  const r = await findRelevantMemories(query, memoryDir, {
    client: opts.client,
    recentTools: opts.recentTools ?? [],
    scan: opts.scan,
    alreadySurfaced: opts.alreadySurfaced,
    signal: opts.signal,
    offlineFallback: opts.offlineFallback,
    termCache: opts.termCache,
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
      freshness: memoryFreshnessText(m.mtimeMs, now),
    })),
    injections: await buildRecallInjection(r.memories, now, opts.projectRoot),
  }
}

/** The frontmatter format new memories get in this project: the setting, else the newest memory's. */
export async function memoryFormatFor(ctx: ProjectContext, memoryDir: string): Promise<MemoryFormat> {
  return preferredMemoryFormat(await scanMemoryFiles(memoryDir), loadAppSettings(ctx).memoryFormat)
}
