import { rethrowUnless, isMissing } from '../../../src-shared/errors.js'
import { codeStalenessNotes } from '../staleness/recall-notes.js'
import { readHeadsOrErrors, type Scanner } from '../store/scan.js'
import { memoryAge, memoryAgeDays, memoryFreshnessText } from './freshness.js'
import type { RelevantMemory } from './find-relevant.js'

export const MAX_INJECTED_LINES = 200
export const MAX_INJECTED_BYTES = 4096

/**
 * The injected part of a memory's head (its first 201 lines): at most 200 lines / 4,096 bytes,
 * with a note when cut.
 */
function injectionOf(path: string, head: string): string {
  let text = head
  let truncated = text.split('\n').length > MAX_INJECTED_LINES
  if (truncated) text = text.split('\n').slice(0, MAX_INJECTED_LINES).join('\n')
  const buf = Buffer.from(text, 'utf8')
  if (buf.length > MAX_INJECTED_BYTES) {
    const nl = buf.lastIndexOf(10, MAX_INJECTED_BYTES - 1)
    text = buf
      .subarray(0, nl > 0 ? nl : MAX_INJECTED_BYTES)
      .toString('utf8')
      .replace(/\uFFFD+$/, '')
    truncated = true
  }
  if (truncated) text += `\n\n(truncated — Read ${path} for the rest)`
  return text
}

/** The header line: the freshness warning for memories older than a day, else "saved today/yesterday". */
export function recallHeader(path: string, mtimeMs: number, now: number = Date.now()): string {
  if (memoryAgeDays(mtimeMs, now) > 1) return `${memoryFreshnessText(mtimeMs, now)}\n\nMemory: ${path}:`
  return `Memory (saved ${memoryAge(mtimeMs, now)}): ${path}:`
}

/**
 * The exact text injected for one recalled memory: the header, a staleness note, the content.
 * Plain text: Claude Code frames hook context itself (2.1.88 inside its own `<system-reminder>`,
 * 2.1.33x escaping any tags inside), so a frame of Memdir's own would reach the model doubled or
 * as literal `&lt;system-reminder>` text.
 */
export function formatRecalledMemory(
  path: string,
  mtimeMs: number,
  content: string,
  now: number = Date.now(),
  staleness?: string,
): string {
  const note = staleness ? `\n${staleness}` : ''
  return `${recallHeader(path, mtimeMs, now)}${note}\n\n${content}`
}

/**
 * The injected text of each recalled memory. With the project's folder, a memory that names
 * repository paths changed since it was saved gets a staleness line (core/health).
 */
export async function buildRecallInjection(
  memories: readonly RelevantMemory[],
  now: number = Date.now(),
  projectRoot?: string,
  scanner?: Scanner,
): Promise<string[]> {
  // One batch: in the app, each read is a round trip to the scan threads.
  const heads = await readHeadsOrErrors(
    memories.map((m) => m.path),
    MAX_INJECTED_LINES + 1,
    scanner,
  )
  const read: { path: string; mtimeMs: number; text: string }[] = []
  memories.forEach((m, i) => {
    const head = heads[i]!
    // Deleted between selection and injection: nothing to show.
    if (head instanceof Error) return rethrowUnless(isMissing(head), head)
    read.push({ path: m.path, mtimeMs: head.mtimeMs, text: injectionOf(m.path, head.content) })
  })
  // The staleness lines work on the text just read: each memory is read once.
  const notes = projectRoot ? await codeStalenessNotes(projectRoot, read) : new Map<string, string>()
  return read.map((r) => formatRecalledMemory(r.path, r.mtimeMs, r.text, now, notes.get(r.path)))
}
