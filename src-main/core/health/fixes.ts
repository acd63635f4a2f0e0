import { readTextFile } from '../store/regular-file.js'
import { join, posix } from 'node:path'
import { putFile, type RecordedWrite } from '../store/recorded-write.js'
import { ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import { readIfExists } from '../store/atomic-write.js'
import { resolveContainedPath } from '../store/contained-path.js'
import { parseMemoryFile, serializeMemoryFile } from '../store/frontmatter.js'
import { rewriteMemoryFile } from '../store/memory-rewrite.js'
import { memoryNameProblem } from '../../../src-shared/memory-names.js'
import {
  checkPointerTarget,
  escapeRegExp,
  formatIndexLine,
  loadedLinksOf,
  MAX_INDEX_LINE_CHARS,
  type PointerFields,
  pointsAt,
  removeIndexLine,
} from '../store/index-lines.js'
import { indexLinksIn } from '../../../src-shared/index-links.js'
import { lineLoads, loadedWhole } from '../store/loaded-lines.js'
import { indexLocationFor, removePointers, upsertPointers } from '../store/memory-files.js'
import type { ProposedFile } from '../review/overlay-tools.js'
import type { Finding } from './findings.js'

export class FixError extends Error {}

/** A fix applied to the files of one finding; returns the paths it changed. */
export type Fix = (memoryDir: string, f: Finding, record?: RecordedWrite) => Promise<string[]>

const need = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new FixError(`this finding has no ${what}`)
  return v
}

/** Removes the index line that points at a missing file. */
export const removeDeadPointer: Fix = async (memoryDir, f, record) =>
  changedOrThrow(await fixPointers(memoryDir, 'remove-pointer', [f], record))

/** Adds the pointer line of a memory that has none, from its name and description. */
export const addMissingPointer: Fix = async (memoryDir, f, record) =>
  changedOrThrow(await fixPointers(memoryDir, 'add-pointer', [f], record))

/** What a fix did to one finding of a batch: the paths it changed, or why it could not. */
export type FixOutcome = { finding: Finding; changed: string[] } | { finding: Finding; error: unknown }

function changedOrThrow([outcome]: FixOutcome[]): string[] {
  if (!outcome) return []
  if ('error' in outcome) throw outcome.error
  return outcome.changed
}

/**
 * removeDeadPointer or addMissingPointer on many findings, with each index (MEMORY.md,
 * team/MEMORY.md) read and written once: one edit per finding re-reads and re-parses the whole
 * index each time, which at thousands of findings takes seconds per hundred.
 */
export async function fixPointers(
  memoryDir: string,
  fix: 'remove-pointer' | 'add-pointer',
  findings: readonly Finding[],
  record?: RecordedWrite,
): Promise<FixOutcome[]> {
  const outcomes: FixOutcome[] = []
  const byIndex = new Map<string, { finding: Finding; relPath: string; fields?: PointerFields }[]>()
  for (const finding of findings) {
    try {
      const todo =
        fix === 'remove-pointer'
          ? { finding, relPath: need(finding.subject, 'target') }
          : { finding, relPath: finding.path, fields: await pointerFieldsOf(memoryDir, finding.path) }
      const { indexRel, pointer } = indexLocationFor(todo.relPath)
      // A name no pointer may hold fails its own finding, not the whole index's edit.
      if (todo.fields) checkPointerTarget(pointer)
      const group = byIndex.get(indexRel) ?? []
      byIndex.set(indexRel, group)
      group.push(todo)
    } catch (error) {
      outcomes.push({ finding, error })
    }
  }
  for (const [indexRel, todo] of byIndex) {
    try {
      if (fix === 'remove-pointer')
        await removePointers(
          memoryDir,
          todo.map((t) => t.relPath),
          record,
        )
      else
        await upsertPointers(
          memoryDir,
          todo.map((t) => ({ relPath: t.relPath, fields: t.fields! })),
          record,
        )
      for (const t of todo) outcomes.push({ finding: t.finding, changed: [indexRel] })
    } catch (error) {
      for (const t of todo) outcomes.push({ finding: t.finding, error })
    }
  }
  return outcomes
}

/** The title and hook of a memory's pointer line: its name (or file name) and description. */
async function pointerFieldsOf(memoryDir: string, relPath: string): Promise<PointerFields> {
  const m = parseMemoryFile(await readTextFile(await resolveContainedPath(memoryDir, relPath)))
  return { name: m.name ?? posix.basename(relPath, '.md'), description: m.description ?? '' }
}

/** Replaces a path the memory names with where git says it went (whole-token matches only). */
export const updateMentionedPath: Fix = async (memoryDir, f, record) => {
  const from = need(f.subject, 'path')
  const to = need(f.movedTo, 'new path')
  const abs = await resolveContainedPath(memoryDir, f.path)
  const text = await readTextFile(abs)
  const escaped = escapeRegExp(from)
  const next = text.replace(
    new RegExp(`(?<![\\w/\\\\.-])(\\.[/\\\\])?${escaped}(?![\\w/\\\\-])`, 'g'),
    (_m, dot: string | undefined) => (dot ?? '') + to,
  )
  if (next === text) throw new FixError(`${f.path} no longer mentions ${from}`)
  await putFile(abs, next, record, text)
  return [f.path]
}

/**
 * A `- [title](target) — hook` line (its link read as index-links.ts reads every pointer, a
 * wikilink's shown text as its title), or undefined.
 */
function pointerLine(line: string): { title: string; target: string; hook: string } | undefined {
  const link = indexLinksIn(line)[0]
  if (!link) return undefined
  const before = line.slice(0, link.from)
  const head = link.wiki ? /^\s*[-*]\s*!?$/.exec(before) : /^\s*[-*]\s*\[([^\]]*)$/.exec(before)
  if (!head) return undefined
  const hook = line.slice(link.after).replace(/^\s*(?:[—–:-]+\s*)?/, '')
  return { title: link.wiki?.shown ?? head[1]!, target: link.decoded, hook }
}

/** An index's lines compacted: long pointer lines shortened, and (`moveText`) text lines moved out. */
function compactLines(
  lines: readonly string[],
  moveText: boolean,
): { kept: string[]; moved: string[]; movedAt: number } {
  const kept: string[] = []
  const moved: string[] = []
  let movedAt = -1
  const loads = lineLoads(lines)
  lines.forEach((line, i) => {
    // What an agent does not load (the frontmatter, comments) costs nothing against the limits,
    // and a line holding part of a comment stays whole, so the comment stays closed.
    if (!loadedWhole(line, loads[i]!)) return void kept.push(line)
    const p = pointerLine(line)
    // A long line is shortened; one whose target no memory may have is left for the user to fix.
    // Any other line that points at a memory (a numbered list, a sentence) stays in the index as
    // it is: the memory it names would otherwise drop out of what the agent loads.
    // A line with a second link keeps it: shortening would cut it or (formatIndexLine) unlink it.
    if (p)
      kept.push(
        line.length > MAX_INDEX_LINE_CHARS && !memoryNameProblem(p.target) && indexLinksIn(line).length === 1
          ? formatIndexLine(p.title, p.target, p.hook)
          : line,
      )
    else if (!moveText || indexLinksIn(line).length) kept.push(line)
    // A line with a comment's start or end stays too: moving it could open or close a comment.
    else if (!line.trim() || /^#{1,6}\s/.test(line) || /<!--|-->/.test(line)) kept.push(line)
    else {
      if (!moved.length) movedAt = kept.length
      moved.push(line)
    }
  })
  return { kept, moved, movedAt }
}

/** Whether `after` leaves out a pointer an agent loads in `before`. */
function hidesPointers(before: readonly string[], after: readonly string[]): boolean {
  const targets = (ls: readonly string[]) => {
    const loads = lineLoads(ls)
    return new Set(ls.flatMap((l, i) => loadedLinksOf(l, loads[i]!).map((k) => k.decoded)))
  }
  const still = targets(after)
  return [...targets(before)].some((t) => !still.has(t))
}

/**
 * Moves detail out of an index: pointer lines are rewritten to the one-line form (title, link, a
 * hook within 150 characters); other text lines move into a memory of their own, linked from the
 * index. Headings, blank lines and what agents do not load (the frontmatter, comments) stay.
 */
export const compactIndex: Fix = async (memoryDir, f, record) => {
  const indexRel = f.path
  const abs = await resolveContainedPath(memoryDir, indexRel)
  const read = await readIfExists(abs)
  const content = read ?? ''
  // The index keeps its line endings, as everything Memdir rewrites of someone else's does.
  const eol = content.includes('\r\n') ? '\r\n' : '\n'
  const lines = content.replace(/\r\n?/g, '\n').split('\n')
  let { kept, moved, movedAt } = compactLines(lines, true)
  // Taking a line out can change what the lines around it are (a list item's indented comment
  // becomes a comment block of its own): then no text moves, and only long pointers are shortened.
  if (hidesPointers(lines, kept)) ({ kept, moved, movedAt } = compactLines(lines, false))
  const dir = posix.dirname(indexRel) === '.' ? '' : posix.dirname(indexRel) + '/'
  const changed = [indexRel]
  if (moved.length) {
    const detailRel = `${dir}index-details.md`
    const detailAbs = await resolveContainedPath(memoryDir, detailRel)
    const existing = await readIfExists(detailAbs)
    // An existing details memory is appended to as it is (its frontmatter may be the user's now).
    const detailEol = existing?.includes('\r\n') ? '\r\n' : '\n'
    const doc = existing
      ? existing.trimEnd() + detailEol + detailEol + moved.join(detailEol) + detailEol
      : serializeMemoryFile({
          name: 'Details moved out of MEMORY.md',
          description: 'notes that used to sit in the index itself',
          type: 'reference',
          body: moved.join('\n') + '\n',
        })
    await putFile(detailAbs, doc, record, existing)
    const pointer = formatIndexLine(
      'Details moved out of MEMORY.md',
      'index-details.md',
      'notes that used to sit in the index',
    )
    // Where the text stood: an index still past its cut after compacting keeps the pointer to its
    // moved text in view when the text was (at the end it would be cut with the rest).
    if (!kept.some((l) => pointsAt(l, 'index-details.md'))) kept.splice(movedAt, 0, pointer)
    changed.push(detailRel)
  }
  await putFile(abs, kept.join(eol).replace(/(?:\r?\n)*$/, eol), record, read)
  return changed
}

/**
 * Merging two memories, as a proposal for the review inbox: the first keeps its frontmatter and
 * gains the lines of the second it lacks; the second is deleted and its pointer removed.
 */
export async function mergeProposalFiles(memoryDir: string, f: Finding): Promise<ProposedFile[]> {
  const keepRel = f.path
  const dropRel = need(f.other, 'second memory')
  const [keepAbs, dropAbs] = await Promise.all([
    resolveContainedPath(memoryDir, keepRel),
    resolveContainedPath(memoryDir, dropRel),
  ])
  const [keepText, dropText] = await Promise.all([readIfExists(keepAbs), readIfExists(dropAbs)])
  if (keepText === null || dropText === null)
    throw new FixError(`${keepText === null ? keepRel : dropRel} is gone`)
  const keep = parseMemoryFile(keepText)
  const drop = parseMemoryFile(dropText)
  const lines = (body: string) => body.split(/\r?\n/)
  const have = new Set(
    lines(keep.body)
      .map((l) => l.trim())
      .filter(Boolean),
  )
  const extra = lines(drop.body).filter((l) => l.trim() && !have.has(l.trim()))
  // Edited in place, as any update is: the kept memory's frontmatter stays as written (comments,
  // quoting) and a file saved with CRLF keeps CRLF.
  const merged = rewriteMemoryFile(
    keepText,
    keep,
    {
      name: keep.name ?? posix.basename(keepRel, '.md'),
      description: keep.description ?? drop.description ?? '',
      type: keep.type ?? drop.type ?? 'project',
      body: keep.body.trimEnd() + (extra.length ? `\n\n${extra.join('\n')}` : '') + '\n',
    },
    keep.format ?? 'flat',
  )
  const files: ProposedFile[] = [
    { path: keepRel, before: keepText, after: merged },
    { path: dropRel, before: dropText, after: null },
  ]
  const { indexRel, pointer } = indexLocationFor(dropRel)
  const indexBefore = await readIfExists(join(memoryDir, indexRel))
  if (indexBefore !== null) {
    const indexAfter = removeIndexLine(indexBefore, pointer)
    if (indexAfter !== indexBefore) files.push({ path: indexRel, before: indexBefore, after: indexAfter })
  }
  return files
}

export const INDEX_NAMES = new Set([ENTRYPOINT_NAME, `team/${ENTRYPOINT_NAME}`])
