import { readFile } from 'node:fs/promises'
import { readTranscriptText } from './transcript-file.js'
import { join } from 'node:path'
import { orIfMissing } from '../../../src-shared/errors.js'
import { parseJsonOr } from '../../../src-shared/json.js'
import { resolveHomeDir, type ProjectContext } from '../paths/context.js'

/**
 * Claude Code can save and recall memories itself. Whether it does is a switch it keeps among the
 * feature values cached in its global config (`~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json`);
 * what it did is in the session's transcript: a `system` entry `memory_saved` with the paths it
 * wrote, and an `attachment` of type `relevant_memories` with the memories it put in context
 * (test/fixtures/client-memory holds both, as the real clients wrote them).
 */
const EXTRACTS = 'tengu_passport_quail'
const RECALLS = 'tengu_moth_copse'

export interface ClientOwnMemory {
  extracts: boolean
  recalls: boolean
}

export function clientGlobalConfigPath(ctx: ProjectContext): string {
  return join(ctx.env.CLAUDE_CONFIG_DIR || resolveHomeDir(ctx), '.claude.json')
}

/** What the client's cached switches say it does by itself (off when it has none, or no config). */
export async function clientOwnMemory(ctx: ProjectContext): Promise<ClientOwnMemory> {
  const text = await orIfMissing(readFile(clientGlobalConfigPath(ctx), 'utf8'), '')
  const config = parseJsonOr(text, {}) as Record<string, unknown> | null
  const cached = [config?.cachedGrowthBookFeatures, config?.cachedFeatureFlags].filter(
    (v): v is Record<string, unknown> => typeof v === 'object' && v !== null,
  )
  const on = (key: string) => cached.some((c) => c[key] === true)
  return { extracts: on(EXTRACTS), recalls: on(RECALLS) }
}

type Entry = Record<string, unknown>

/** The memories the client saved itself in these transcript entries (absolute paths). */
export function savedByClient(entries: readonly object[]): string[] {
  return (entries as readonly Entry[]).flatMap((e) =>
    e.type === 'system' && e.subtype === 'memory_saved' && Array.isArray(e.writtenPaths)
      ? e.writtenPaths.filter((p): p is string => typeof p === 'string')
      : [],
  )
}

/** The memories the client put into the session's context itself (absolute paths). */
export function recalledByClient(entries: readonly object[]): string[] {
  return (entries as readonly Entry[]).flatMap((e) => {
    const a = e.type === 'attachment' ? (e.attachment as Entry | undefined) : undefined
    if (a?.type !== 'relevant_memories' || !Array.isArray(a.memories)) return []
    return (a.memories as Entry[]).flatMap((m) => (typeof m.path === 'string' ? [m.path] : []))
  })
}

/**
 * The memories the client surfaced itself in a session, read from its transcript: only lines that
 * name the attachment are parsed (a prompt hook reads this before every prompt).
 */
export async function recalledInTranscript(path: string | undefined): Promise<string[]> {
  if (!path) return []
  const text = (await readTranscriptText(path)) ?? ''
  const entries = text
    .split('\n')
    .filter((l) => l.includes('"relevant_memories"'))
    .map((l) => parseJsonOr(l, null))
    .filter((e): e is object => typeof e === 'object' && e !== null)
  return recalledByClient(entries)
}
