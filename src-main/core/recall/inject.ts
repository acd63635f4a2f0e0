import { cutText } from '../../../src-shared/unicode.js'
import { memoryHeaderLine } from '../../../src-shared/recall-header.js'
import { rethrowUnless, isMissing } from '../../../src-shared/errors.js'
import { codeStalenessNotes, type StalenessBasis } from '../staleness/recall-notes.js'
import { readHeadsOrErrors, type Scanner } from '../store/scan.js'
import { memoryAge, memoryAgeDays, memoryFreshnessText } from './freshness.js'
import type { RelevantMemory } from './find-relevant.js'

export const MAX_INJECTED_LINES = 200
export const MAX_INJECTED_BYTES = 4096
/**
 * The most a prompt's recalled memories take, separators included. Claude Code passes a hook's
 * additional context on whole only up to 10,000 characters: 2.1.88 cuts the rest off, 2.1.33x
 * puts all of it in a file and shows the model a preview with the file's path. Five memories of
 * 4,096 bytes each are twice that, so the memories share this much, each cut with its note.
 */
export const MAX_INJECTED_CHARS = 10_000
/** Below this much of its content per memory, the last memories are left for a later prompt. */
const MIN_SHARE_CHARS = 300

/** The injected part of a memory's head (its first 201 lines): at most 200 lines / 4,096 bytes. */
function injectionOf(head: string): { text: string; cut: boolean } {
  let text = head
  let cut = text.split('\n').length > MAX_INJECTED_LINES
  if (cut) text = text.split('\n').slice(0, MAX_INJECTED_LINES).join('\n')
  const buf = Buffer.from(text, 'utf8')
  if (buf.length > MAX_INJECTED_BYTES) {
    const nl = buf.lastIndexOf(10, MAX_INJECTED_BYTES - 1)
    text = buf
      .subarray(0, nl > 0 ? nl : MAX_INJECTED_BYTES)
      .toString('utf8')
      .replace(/\uFFFD+$/, '')
    cut = true
  }
  return { text, cut }
}

const cutNote = (path: string) => `\n\n(truncated — Read ${path} for the rest)`
const SEPARATOR = '\n\n'

/** `text` cut to at most `n` characters, at the end of a line when one ends in its second half. */
function cutAtLine(text: string, n: number): string {
  if (n <= 0) return ''
  const cut = cutText(text, n)
  const nl = cut.lastIndexOf('\n')
  return (nl > n / 2 ? cut.slice(0, nl) : cut).trimEnd()
}

interface Part {
  path: string
  /** Everything before the content: the header, a staleness line, the blank line. */
  head: string
  text: string
  cut: boolean
}

/**
 * The parts within MAX_INJECTED_CHARS: when they are over it, their contents share what the
 * headers and notes leave (a short memory keeps all of its content, the rest is split evenly among
 * the longer ones), and each memory cut gets its note. The order is the recall's (best first).
 */
function fitParts(parts: Part[], max = MAX_INJECTED_CHARS): Part[] {
  const size = (p: Part) => p.head.length + p.text.length + (p.cut ? cutNote(p.path).length : 0)
  const total = (ps: Part[]) => ps.reduce((n, p) => n + size(p), 0) + SEPARATOR.length * (ps.length - 1)
  if (total(parts) <= max) return parts
  const fixed = (ps: Part[]) =>
    ps.reduce((n, p) => n + p.head.length + cutNote(p.path).length, 0) + SEPARATOR.length * (ps.length - 1)
  const kept = [...parts]
  while (kept.length > 1 && (max - fixed(kept)) / kept.length < MIN_SHARE_CHARS) kept.pop()
  let room = max - fixed(kept)
  const share = new Map<Part, number>()
  let left = kept.length
  for (const p of [...kept].sort((a, b) => a.text.length - b.text.length)) {
    const n = Math.min(p.text.length, Math.floor(room / left--))
    share.set(p, n)
    room -= n
  }
  return kept.map((p) => {
    const n = share.get(p)!
    return n >= p.text.length ? p : { ...p, text: cutAtLine(p.text, n), cut: true }
  })
}

/** The header line: the freshness warning for memories older than a day, else "saved today/yesterday". */
export function recallHeader(path: string, mtimeMs: number, now: number = Date.now()): string {
  if (memoryAgeDays(mtimeMs, now) > 1)
    return `${memoryFreshnessText(mtimeMs, now)}\n\n${memoryHeaderLine(path)}`
  return memoryHeaderLine(path, memoryAge(mtimeMs, now))
}

/**
 * `text` with the `<` of each `<system-reminder>` and `</system-reminder>` tag written `&lt;`.
 * Claude Code puts hook context inside such a frame (2.1.88; 2.1.33x escapes these tags the same
 * way itself): a memory holding `</system-reminder>` — a teammate's, pulled from team sync — would
 * end the frame, and what follows it would reach the model as the user's own words.
 */
export function withoutFrameTags(text: string): string {
  return text.replace(/<(?=\/?system-reminder)/gi, '&lt;')
}

/**
 * The exact text injected for one recalled memory: the header, a staleness note, the content.
 * Plain text: Claude Code frames hook context itself (2.1.88 inside its own `<system-reminder>`,
 * 2.1.33x escaping any tags inside), so a frame of Memdir's own would reach the model doubled or
 * as literal `&lt;system-reminder>` text; the memory's own frame tags are escaped (withoutFrameTags).
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
 * The injected text of each recalled memory, all of them within MAX_INJECTED_CHARS joined by a
 * blank line. With the project's folder (`staleness`), a memory that names repository paths changed
 * since it was saved (or marked still true) gets a staleness line (core/staleness). A memory
 * deleted since it was selected, or (with absurdly long paths) one left for lack of room, has none.
 */
export async function buildRecallInjection(
  memories: readonly RelevantMemory[],
  now: number = Date.now(),
  staleness?: StalenessBasis,
  scanner?: Scanner,
): Promise<string[]> {
  return (await recallInjections(memories, now, staleness, scanner)).map((i) => i.text)
}

/** buildRecallInjection's texts with the path of the memory each one shows. */
export async function recallInjections(
  memories: readonly RelevantMemory[],
  now: number = Date.now(),
  staleness?: StalenessBasis,
  scanner?: Scanner,
): Promise<{ path: string; text: string }[]> {
  // One batch: in the app, each read is a round trip to the scan threads.
  const heads = await readHeadsOrErrors(
    memories.map((m) => m.path),
    MAX_INJECTED_LINES + 1,
    scanner,
  )
  const read: { path: string; mtimeMs: number; text: string; cut: boolean }[] = []
  memories.forEach((m, i) => {
    const head = heads[i]!
    // Deleted between selection and injection: nothing to show.
    if (head instanceof Error) return rethrowUnless(isMissing(head), head)
    read.push({ path: m.path, mtimeMs: head.mtimeMs, ...injectionOf(head.content) })
  })
  // The staleness lines work on the text just read: each memory is read once.
  const notes = staleness ? await codeStalenessNotes(staleness, read) : new Map<string, string>()
  const parts = read.map((r) => ({
    path: r.path,
    head: formatRecalledMemory(r.path, r.mtimeMs, '', now, notes.get(r.path)),
    text: r.text,
    cut: r.cut,
  }))
  return fitParts(parts).map((p) => ({
    path: p.path,
    text: withoutFrameTags(p.head + p.text + (p.cut ? cutNote(p.path) : '')),
  }))
}
