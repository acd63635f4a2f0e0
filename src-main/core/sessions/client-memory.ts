import { readFile } from 'node:fs/promises'
import { readAppendedBytes } from '../store/appended-lines.js'
import { join } from 'node:path'
import { orIfMissing } from '../../../src-shared/errors.js'
import { parseJsonOr } from '../../../src-shared/json.js'
import { resolveHomeDir, type ProjectContext } from '../paths/context.js'
import { injectedPathsIn } from '../../../src-shared/recall-header.js'

/**
 * Claude Code can save and recall memories itself. Whether it does is a switch it keeps among the
 * feature values cached in its global config (`~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json`);
 * what it did is in the session's transcript: a `system` entry `memory_saved` with the paths it
 * wrote, and an `attachment` of type `relevant_memories` with the memories it put in context
 * (test/fixtures/client-memory holds both, as the real clients wrote them).
 */
const EXTRACTS = 'tengu_passport_quail'
const RECALLS = 'tengu_moth_copse'
const MAY_BE_ON = new RegExp(`"(?:${EXTRACTS}|${RECALLS})"\\s*:\\s*true`)

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
  // The prompt hook asks before every prompt, and this file holds the client's history of every
  // project (megabytes for some): it is parsed only when a switch may be on.
  if (!MAY_BE_ON.test(text)) return { extracts: false, recalls: false }
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
 * The memories a prompt hook put into the session's context (absolute paths), as the newer clients
 * record hook context in the transcript: a session forked or resumed from it (`--fork-session`) has
 * them in its context already, under a session id Memdir has not seen.
 */
export function recalledByHook(entries: readonly object[]): string[] {
  return (entries as readonly Entry[]).flatMap((e) => {
    const a = e.type === 'attachment' ? (e.attachment as Entry | undefined) : undefined
    if (a?.type !== 'hook_additional_context' || !Array.isArray(a.content)) return []
    return a.content.flatMap((c) => (typeof c === 'string' ? injectedPathsIn(c) : []))
  })
}

/** How far a session's transcript has been read (readAppended's offset, and the file's inode). */
export interface TranscriptMark {
  offset: number
  ino: number
}

/**
 * The memories put into a session's context since `mark` — by the client's own recall, or by a
 * prompt hook as the newer clients record its context — read from the lines appended
 * to its transcript since then, with the new mark: a prompt hook runs this before every prompt, and
 * a long session's transcript runs to many MB. Only lines that name the attachment or a compaction
 * are parsed. `compacted`: the conversation was compacted since (`/compact`, or the client's own
 * when its context fills up), so what was put in context before is no longer there; `paths` are
 * then only what the client surfaced after the last compaction. A transcript replaced under its
 * name is read from its start; one that is missing or not a regular file gives nothing.
 */
export async function recalledInTranscript(
  path: string | undefined,
  mark?: TranscriptMark,
): Promise<{ paths: string[]; compacted: boolean; mark?: TranscriptMark }> {
  if (!path) return { paths: [], compacted: false }
  const got = await readAppendedBytes(path, { offset: mark?.offset ?? 0, ino: mark?.ino })
  if (!got) return { paths: [], compacted: false }
  const entries = linesNaming(got.bytes, [
    '"relevant_memories"',
    '"compact_boundary"',
    '"hook_additional_context"',
  ])
    .map((l) => parseJsonOr(l, null))
    .filter((e): e is Entry => typeof e === 'object' && e !== null)
  const last = entries.findLastIndex((e) => e.type === 'system' && e.subtype === 'compact_boundary')
  const kept = entries.slice(last + 1)
  return {
    paths: [...recalledByClient(kept), ...recalledByHook(kept)],
    compacted: last >= 0,
    mark: { offset: got.end, ino: got.ino },
  }
}

/** The lines of `bytes` that contain one of `needles`, in order, decoded; the rest is never turned into strings. */
function linesNaming(bytes: Buffer, needles: readonly string[]): string[] {
  const starts = new Set<number>()
  for (const needle of needles)
    for (let at = bytes.indexOf(needle); at !== -1;) {
      const start = bytes.lastIndexOf(0x0a, at) + 1
      const nl = bytes.indexOf(0x0a, at)
      starts.add(start)
      at = nl === -1 ? -1 : bytes.indexOf(needle, nl)
    }
  return [...starts]
    .sort((a, b) => a - b)
    .map((start) => {
      const nl = bytes.indexOf(0x0a, start)
      return bytes.toString('utf8', start, nl === -1 ? bytes.length : nl)
    })
}
