import { oneLine } from '../../../src-shared/unicode.js'
import { messageOf } from '../../../src-shared/errors.js'
import type { ModelClient } from '../model/client.js'
import { formatMemoryManifest } from '../store/manifest.js'
import { MAX_MEMORY_FILES, type MemoryHeader, type Scanner, scanMemoryFiles } from '../store/scan.js'
import { rankMemoriesOffline } from './offline-ranker.js'
import { recallQueryText } from './query-text.js'
import type { TermSource } from './term-source.js'
import {
  buildSelectorUserMessage,
  MAX_RECALLED,
  SELECTOR_SCHEMA,
  SELECTOR_SYSTEM_PROMPT,
} from './selector-prompt.js'

export interface RelevantMemory {
  path: string
  mtimeMs: number
}

export interface RecallOptions {
  /** Absolute paths already shown this session: filtered out before the model call. */
  alreadySurfaced?: Iterable<string>
  /** Tools that succeeded since the last human turn. */
  recentTools?: readonly string[]
  /** Without a client the offline ranker answers, labelled as such. */
  client?: ModelClient
  signal?: AbortSignal
  /**
   * Supplies every memory's header, newest first (an incremental index); defaults to a fresh scan
   * of all. The offline ranker ranks them all; the model selector's manifest takes the newest 200.
   */
  scan?: (memoryDir: string) => Promise<readonly MemoryHeader[]>
  /** When the selector call fails or times out, answer with the offline ranker (labelled) instead. */
  offlineFallback?: boolean
  /** The offline ranker's terms from earlier runs (saved back after ranking). */
  termCache?: TermSource
  /** Where memory files are read (the entry point's choice); default: defaultScanner(). */
  scanner?: Scanner
}

export interface RecallResult {
  memories: RelevantMemory[]
  mode: 'model' | 'offline'
  /** Human-readable note for the UI, e.g. why the offline ranker was used. */
  note?: string
  candidates: number
  /** What the selector answered, before filtering (model mode). */
  rawSelection: string[]
  error?: string
}

const NO_MODEL = 'no model configured'
const offlineNote = (why: string) => `offline ranking (${why}): lexical match on name, description and body`

function selectionFrom(reply: unknown): string[] {
  const list = (reply as { selected_memories?: unknown })?.selected_memories
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []
}

/**
 * What the model selector is shown: the newest 200, as Claude Code's own selector is, and after
 * them the older memories the offline ranker finds for this prompt (at most MAX_RECALLED), so that
 * a key configured never hides an old memory that alone answers the prompt. Newest first still:
 * everything past the head is older than all of it.
 */
async function selectorCandidates(
  unseen: readonly MemoryHeader[],
  rankOffline: () => Promise<{ header: MemoryHeader }[]>,
): Promise<readonly MemoryHeader[]> {
  const newest = unseen.slice(0, MAX_MEMORY_FILES)
  if (unseen.length <= MAX_MEMORY_FILES) return newest
  const shown = new Set(newest.map((m) => m.filePath))
  const older = (await rankOffline())
    .map((r) => r.header)
    .filter((h) => !shown.has(h.filePath))
    .slice(0, MAX_RECALLED)
  return older.length ? [...newest, ...older] : newest
}

/**
 * SPEC §6: scan → drop already surfaced → manifest → selector → keep only listed names (≤ 5).
 * The selector sees the newest 200 as Claude Code's does, and the older memories the offline
 * ranker finds (selectorCandidates); the offline ranker, with no prompt to fit, ranks every
 * memory, so an old memory that alone answers a query is still found, with a model or without.
 */
export async function findRelevantMemories(
  prompt: string,
  memoryDir: string,
  opts: RecallOptions = {},
): Promise<RecallResult> {
  const query = recallQueryText(prompt)
  const surfaced = new Set(opts.alreadySurfaced ?? [])
  const all = await (
    opts.scan ?? ((dir: string) => scanMemoryFiles(dir, { scanner: opts.scanner, limit: Infinity }))
  )(memoryDir)
  const unseen = surfaced.size ? all.filter((m) => !surfaced.has(m.filePath)) : all
  // The whole list with the surfaced left out, not `unseen`: an indexed cache keeps what it
  // prepared for a list (the app's index hands out one until a file changes).
  let rankedOffline: Promise<Awaited<ReturnType<typeof rankMemoriesOffline>>> | undefined
  const rankOffline = () =>
    (rankedOffline ??= (async () => {
      const ranked = await rankMemoriesOffline(query, all, {
        cache: opts.termCache,
        scanner: opts.scanner,
        exclude: surfaced,
      })
      await opts.termCache?.save(all)
      return ranked
    })())
  const candidates = opts.client ? await selectorCandidates(unseen, rankOffline) : unseen
  const base = { candidates: candidates.length, rawSelection: [] as string[] }
  if (!unseen.length)
    return opts.client
      ? { ...base, memories: [], mode: 'model' }
      : { ...base, memories: [], mode: 'offline', note: offlineNote(NO_MODEL) }

  const offline = async (why: string): Promise<RecallResult> => {
    const ranked = await rankOffline()
    return {
      ...base,
      candidates: unseen.length,
      mode: 'offline',
      note: offlineNote(why),
      memories: ranked.map((r) => ({ path: r.header.filePath, mtimeMs: r.header.mtimeMs })),
    }
  }
  if (!opts.client) return offline(NO_MODEL)

  // By the name as the manifest shows it (oneLine): the model answers with what it read.
  const byName = new Map(candidates.map((m) => [oneLine(m.filename), m]))
  try {
    // Loaded only when a model is asked: the offline path (every hook without a key) never needs it.
    const { sideQuery } = await import('../model/side-query.js')
    const reply = await sideQuery(opts.client, {
      model: opts.client.config.selectorModel,
      system: SELECTOR_SYSTEM_PROMPT,
      user: buildSelectorUserMessage(query, formatMemoryManifest(candidates), opts.recentTools ?? []),
      maxTokens: 256,
      schema: SELECTOR_SCHEMA as unknown as Record<string, unknown>,
      signal: opts.signal,
    })
    const rawSelection = selectionFrom(reply)
    const picked = [...new Set(rawSelection)]
      .map((name) => byName.get(name))
      .filter((m): m is MemoryHeader => m !== undefined)
      .slice(0, MAX_RECALLED)
    return {
      ...base,
      rawSelection,
      mode: 'model',
      memories: picked.map((m) => ({ path: m.filePath, mtimeMs: m.mtimeMs })),
    }
  } catch (e) {
    const error = opts.signal?.aborted ? 'the model selector timed out' : messageOf(e)
    if (opts.offlineFallback) return offline(`model selector failed: ${error}`)
    return { ...base, mode: 'model', memories: [], error }
  }
}
