import { cutText } from '../../../src-shared/unicode.js'
import { pointerTargetProblem } from '../../../src-shared/memory-names.js'
import { MemdirError } from '../../../src-shared/errors.js'
import { kebabSlug } from './frontmatter.js'
import { isLoaded, type LineLoad, lineLoads, loadedWhole } from './loaded-lines.js'
import {
  type IndexLink,
  indexLinksIn,
  linkDestination,
  linksTo,
  pointersLinkedBy,
  retargetLink,
} from '../../../src-shared/index-links.js'

/** MEMORY.md pointer lines: `- [Title](file.md) — one-line hook` (SPEC §10). */

export const MAX_INDEX_LINE_CHARS = 150

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The title and hook of a memory, as its pointer line shows them. */
export interface PointerFields {
  name: string
  description: string
}

/**
 * Throws unless a MEMORY.md line may point at `pointer`: a line Memdir writes never points outside
 * the memory dir, and no name can break it into two lines (pointerTargetProblem); a new file's
 * name has passed the whole name rule before it gets here.
 */
export function checkPointerTarget(pointer: string): void {
  const problem = pointerTargetProblem(pointer)
  if (problem)
    throw new MemdirError(
      problem.code,
      `no MEMORY.md pointer to ${JSON.stringify(pointer)}: ${problem.message}`,
      {
        name: pointer,
      },
    )
}

/** The line Memdir writes for a memory (its target checked by checkPointerTarget). */
export function formatIndexLine(title: string, relPath: string, hook: string): string {
  checkPointerTarget(relPath)
  const head = `- [${lineTitle(title, relPath)}](${linkDestination(relPath)})`
  const cleanHook = lineHook(hook)
  if (!cleanHook) return head
  const line = `${head} — ${cleanHook}`
  if (line.length <= MAX_INDEX_LINE_CHARS) return line
  const room = MAX_INDEX_LINE_CHARS - head.length - 4
  return room > 10 ? `${head} — ${cutText(cleanHook, room).trimEnd()}…` : head
}

/**
 * A memory's description as its line shows it: one line, and no link of its own. A description
 * is anyone's text (an MCP client's, a model's), and `see [x](../../.ssh/id_rsa)` or `[[../notes]]`
 * in it would make the line a pointer out of the memory dir: a space between `]` and `(`, and
 * inside `[[` and `]]`, leaves the words and makes no link in Markdown, Obsidian or index-links.ts.
 */
function lineHook(hook: string): string {
  return hook
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\[(?=\[)/g, '[ ')
    .replace(/\](?=[\](])/g, '] ')
}

/** A memory's name as its line shows it: one line, no brackets (they would end the link text). */
function lineTitle(name: string, relPath: string): string {
  return (
    name
      .replace(/[[\]\n]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || relPath
  )
}

/** Whether `line` has a link to `pointer`, however it is written (index-links.ts). */
export const pointsAt = (line: string, pointer: string) => indexLinksIn(line).some((l) => linksTo(l, pointer))

/**
 * The links of each line that an agent loads: none in the frontmatter or in a comment
 * (loaded-lines.ts). A link there is no pointer: the memory it names is in no line the agent reads.
 */
export function loadedLinksOf(line: string, load: LineLoad): IndexLink[] {
  if (!load) return []
  return indexLinksIn(line).filter((l) => isLoaded(load, l.from, l.after))
}

/** The first line an agent loads that points at `relPath`: where, its link there, and what of it loads. */
function loadedPointer(
  lines: readonly string[],
  relPath: string,
): { at: number; link: IndexLink; load: NonNullable<LineLoad> } | undefined {
  const loads = lineLoads(lines)
  for (let at = 0; at < lines.length; at++) {
    const link = loadedLinksOf(lines[at]!, loads[at]!).find((l) => linksTo(l, relPath))
    if (link) return { at, link, load: loads[at]! }
  }
  return undefined
}

/** Index of the first line an agent loads that points at `relPath`, or -1. */
export function findIndexLine(lines: readonly string[], relPath: string): number {
  return loadedPointer(lines, relPath)?.at ?? -1
}

/**
 * The line an agent loads that points at `relPath` (as findIndexLine finds it), and what removing
 * the pointer leaves of it when it also holds part of a comment (its comment parts; else undefined).
 */
export function pointerLineOf(
  lines: readonly string[],
  relPath: string,
): { at: number; left: string | undefined } | undefined {
  const found = loadedPointer(lines, relPath)
  if (!found) return undefined
  const line = lines[found.at]!
  return {
    at: found.at,
    left: loadedWhole(line, found.load) ? undefined : withoutLoadedText(line, found.load),
  }
}

/**
 * A CRLF index keeps its line breaks: its lines keep their own `\r`, and a line Memdir adds or
 * regenerates takes one too (a mix would show in the user's diff and editor).
 */
const crOf = (content: string) => (content.includes('\r\n') ? '\r' : '')
const bare = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line)

function splitLines(content: string): string[] {
  if (content === '') return []
  const lines = content.replace(/\n+$/, '').split('\n')
  return lines
}

function joinLines(lines: string[]): string {
  return lines.length ? lines.join('\n') + '\n' : ''
}

/**
 * Whether Memdir wrote `line` for the memory as it was (`previous`): exactly the line it generates
 * from that name and description — the title being the name, or (newer Claude Code's kebab-case
 * names) a title whose slug is the name. Any other line is someone else's: the user's, Claude Code's.
 */
export function isGeneratedLine(line: string, pointer: string, previous: PointerFields | undefined): boolean {
  if (!previous) return false
  const m = /^- \[([^\]]*)\]\(/.exec(line)
  if (!m) return false
  const title = m[1]!
  // The name as formatIndexLine writes it into the line (brackets and line breaks made spaces).
  const named =
    title === lineTitle(previous.name, pointer) ||
    kebabSlug(title) === previous.name.trim() ||
    title === pointer
  if (!named) return false
  const generated = formatIndexLine(title, pointer, previous.description)
  // Before names with spaces were written in <…>, Memdir wrote them bare.
  return generated === line || generated.replace(`](<${pointer}>)`, `](${pointer})`) === line
}

/**
 * The index after saving the memory `pointer` names: a missing line is added; an existing line is
 * regenerated from the new fields only when Memdir wrote it from the previous ones — a line the
 * user or Claude Code wrote stays as it is.
 */
export function upsertIndexLine(
  content: string,
  pointer: string,
  fields: PointerFields,
  previous?: PointerFields,
): string {
  return upsertIndexLines(content, [{ pointer, fields, previous }])
}

/** A memory's line to upsert: its pointer, its fields, and the fields its line was generated from. */
export interface PointerUpsert {
  pointer: string
  fields: PointerFields
  previous?: PointerFields
}

/** upsertIndexLine for many memories, reading the index's lines once. */
export function upsertIndexLines(content: string, upserts: readonly PointerUpsert[]): string {
  const lines = splitLines(content)
  const at = firstLinesPointingAt(
    lines,
    upserts.map((u) => u.pointer),
  )
  const cr = crOf(content)
  for (const { pointer, fields, previous } of upserts) {
    const line = formatIndexLine(fields.name, pointer, fields.description) + cr
    const i = at.get(pointer)
    if (i === undefined) at.set(pointer, lines.push(line) - 1)
    else if (isGeneratedLine(bare(lines[i]!), pointer, previous)) lines[i] = line
  }
  return joinLines(lines)
}

/**
 * For each of `pointers` that a loaded line points at, the index of the first such line. A link in
 * an HTML comment (or the frontmatter) is not loaded: it is no pointer, and the memory gets a line
 * of its own.
 */
function firstLinesPointingAt(lines: readonly string[], pointers: readonly string[]): Map<string, number> {
  const leadsTo = pointersLinkedBy(pointers)
  const loads = lineLoads(lines)
  const at = new Map<string, number>()
  lines.forEach((line, i) => {
    for (const link of loadedLinksOf(line, loads[i]!))
      for (const p of leadsTo(link)) if (!at.has(p)) at.set(p, i)
  })
  return at
}

/**
 * The loaded line pointing at `from`, with only its link target changed to `to` (a rename), or
 * undefined. A comment naming `from` stays as it was written.
 */
export function retargetedLine(content: string, from: string, to: string): string | undefined {
  const lines = splitLines(content)
  const found = loadedPointer(lines, from)
  if (!found) return undefined
  checkPointerTarget(to)
  return retargetLink(lines[found.at]!, found.link, to)
}

/**
 * The index with every loaded link to `from` leading to `to` instead (a rename within one index),
 * each link keeping how it is written, or undefined when no loaded line links `from`. A prose line
 * or a reference definition naming the memory follows it as its own line does; a comment naming
 * `from` stays as it was written.
 */
export function retargetedIndex(content: string, from: string, to: string): string | undefined {
  const lines = splitLines(content)
  const loads = lineLoads(lines)
  let found = false
  const out = lines.map((line, i) => {
    const links = loadedLinksOf(line, loads[i]!).filter((l) => linksTo(l, from))
    if (!links.length) return line
    found = true
    // From the last link back, so the offsets of the ones before it still hold.
    return links.sort((a, b) => b.from - a.from).reduce((l, link) => retargetLink(l, link, to), line)
  })
  if (!found) return undefined
  checkPointerTarget(to)
  return joinLines(out)
}

/**
 * The index a memory leaves for an index below it (MEMORY.md → `team/`): its own line goes (it
 * moves with the memory), and every other link to it (a sentence, a reference definition) leads
 * to `to`, its path from this index, instead of becoming a dead pointer.
 */
export function movedOutOfIndex(content: string, from: string, to: string): string {
  const lines = splitLines(content)
  const own = pointerLineOf(lines, from)
  if (own && indexLinksIn(lines[own.at]!).every((l) => linksTo(l, from))) {
    if (own.left === undefined) lines.splice(own.at, 1)
    else lines[own.at] = own.left
  }
  const left = joinLines(lines)
  return retargetedIndex(left, from, to) ?? left
}

/** Puts `line` where the line pointing at `pointer` is, or appends it. */
export function replaceIndexLine(content: string, pointer: string, written: string): string {
  const lines = splitLines(content)
  const line = bare(written) + crOf(content)
  const i = findIndexLine(lines, pointer)
  if (i >= 0) lines[i] = line
  else lines.push(line)
  return joinLines(lines)
}

/**
 * The index without its pointers to `relPath`: a line that points only there goes; a line that
 * also points at other memories (someone's prose: "see [a](a.md) and [b](b.md)") stays, with only
 * the links to `relPath` turned into their plain text, so the other pointers are not lost with it.
 */
export function removeIndexLine(content: string, relPath: string): string {
  return removeIndexLines(content, [relPath])
}

/**
 * removeIndexLine for many memories, reading the index's lines once. Only what an agent loads is
 * touched: a comment naming a memory stays as written, and a line that closes (or holds) a comment
 * keeps the comment when its loaded part goes, so no comment is left open.
 */
export function removeIndexLines(content: string, relPaths: readonly string[]): string {
  const leadsTo = pointersLinkedBy(relPaths)
  const lines = splitLines(content)
  const loads = lineLoads(lines)
  const kept: string[] = []
  lines.forEach((line, i) => {
    const load = loads[i]!
    const links = loadedLinksOf(line, load)
    const gone = links.filter((l) => leadsTo(l).length > 0)
    if (!gone.length) kept.push(line)
    else if (gone.length < links.length) kept.push(unlinked(line, gone))
    else if (!loadedWhole(line, load)) kept.push(withoutLoadedText(line, load!))
  })
  return joinLines(kept)
}

/** What is left of a line once the text an agent loads of it goes: its comments. */
function withoutLoadedText(line: string, load: NonNullable<LineLoad>): string {
  let out = bare(line)
  for (const [a, z] of [...load.kept].reverse()) out = out.slice(0, a) + out.slice(z)
  return out + (line.endsWith('\r') ? '\r' : '')
}

/** `line` with each of `links` (inline ones and wikilinks) replaced by the text it shows. */
function unlinked(line: string, links: readonly IndexLink[]): string {
  let out = line
  for (const l of [...links].reverse()) {
    if (l.wiki) {
      const embed = out[l.from - 1] === '!' ? 1 : 0
      out = out.slice(0, l.from - embed) + l.wiki.shown + out.slice(l.after)
      continue
    }
    const open = out.lastIndexOf('[', l.from)
    if (open < 0) continue
    out = out.slice(0, open) + out.slice(open + 1, l.from) + out.slice(l.after)
  }
  return out
}
