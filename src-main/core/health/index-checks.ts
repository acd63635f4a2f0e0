import { cutText } from '../../../src-shared/unicode.js'
import { count, isOne } from '../../../src-shared/words.js'
import { posix } from 'node:path'
import { MAX_INDEX_LINE_CHARS } from '../store/index-lines.js'
import {
  type IndexLink,
  indexLinksIn,
  linkedMemory,
  linksLeavingIndex,
  namesFileAnywhere,
} from '../../../src-shared/index-links.js'
import { ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import { indexLocationFor } from '../store/memory-files.js'
import { truncateEntrypointContent } from '../store/truncate.js'
import { commentsReadable, isLoaded, keptText, lineLoads } from '../store/loaded-lines.js'
import { finding, type Finding } from './findings.js'

/** An index's name held by something other than a file: agents load no index, and no pointer can be added. */
export function indexNotAFileFinding(indexRel: string, what: string): Finding {
  return finding(
    'index-not-file',
    indexRel,
    `${indexRel} is ${what}, not a file: agents load no index, and no pointer can be added. Move it out of the memory dir.`,
    [],
    [],
  )
}

/**
 * The memory files an index points at (relative to the memory dir), with their line numbers: each
 * link as index-links.ts reads it, `also` the same target without percent-decoding (a file may
 * have a literal `%` in its name).
 */
export function pointersOf(
  indexRel: string,
  content: string,
): {
  target: string
  also: string
  raw: string
  line: number
  text: string
  byName: boolean
  link: IndexLink
  /** Whether an agent loads the link (not in the frontmatter or a comment). */
  loaded: boolean
}[] {
  const base = posix.dirname(indexRel) === '.' ? '' : posix.dirname(indexRel) + '/'
  const lines = content.split(/\r?\n/)
  const loads = lineLoads(lines)
  return lines.flatMap((text, i) =>
    indexLinksIn(text).map((l) => ({
      target: posix.normalize(base + l.decoded),
      also: posix.normalize(base + l.raw),
      raw: l.raw,
      line: i + 1,
      text,
      byName: namesFileAnywhere(l),
      link: l,
      loaded: isLoaded(loads[i]!, l.from, l.after),
    })),
  )
}

/**
 * One index (MEMORY.md or team/MEMORY.md) against the files it indexes: pointers to missing
 * files, files without a pointer, lines past the limits Claude Code applies, over-long lines.
 */
export function checkIndex(
  indexRel: string,
  content: string | null,
  files: readonly string[],
  /** Each memory's `name`, by path (what a wikilink may name it by). */
  names: ReadonlyMap<string, string> = new Map(),
): Finding[] {
  const out: Finding[] = []
  const mine = files.filter((f) => indexLocationFor(f).indexRel === indexRel)
  const indexDir = posix.dirname(indexRel) === '.' ? '' : posix.dirname(indexRel)
  // A wikilink by name alone leads where linkedMemory finds it (its name in any folder, or a
  // memory's frontmatter name); one that leads nowhere stays a pointer to its missing file.
  const t = content === null ? undefined : truncateEntrypointContent(content)
  // A link in an HTML comment block (or the frontmatter) is not loaded: it points agents nowhere.
  const all = (content === null ? [] : pointersOf(indexRel, content)).map((p) => ({
    ...p,
    target: p.byName ? (linkedMemory(p.link, indexDir, mine, (f) => names.get(f)) ?? p.target) : p.target,
  }))
  const pointers = all.filter((p) => p.loaded)
  const hidden = new Map(all.filter((p) => !p.loaded).map((p) => [p.target, p]))
  const present = new Set(files)
  const outside = content === null ? [] : linksLeavingIndex(content)
  const where = indexRel === ENTRYPOINT_NAME ? 'the memory dir' : `${posix.dirname(indexRel)}/`
  for (const l of outside)
    out.push(
      finding(
        'link-outside',
        indexRel,
        `Links to ${l.destination}, outside ${where}: an agent that loads this index is sent to a file that is not memory`,
        [`line ${l.line}: ${l.text.trim()}`],
        [],
        { subject: l.destination },
      ),
    )
  const leaving = new Set(outside.map((l) => `${l.line}|${l.destination}`))
  for (const p of pointers)
    if (!present.has(p.target) && !present.has(p.also) && !leaving.has(`${p.line}|${p.raw}`))
      out.push(
        finding(
          'dead-pointer',
          indexRel,
          `Points at ${p.target}, which does not exist`,
          [`line ${p.line}: ${p.text.trim()}`],
          ['remove-pointer'],
          {
            subject: p.target,
          },
        ),
      )
  const pointed = new Set(pointers.flatMap((p) => [p.target, p.also]))
  for (const f of mine) {
    if (pointed.has(f)) continue
    const commented = hidden.get(f)
    out.push(
      finding(
        'unindexed',
        f,
        commented
          ? `Only in an HTML comment or the frontmatter of ${indexRel}, which agents do not load: they find it by recall alone`
          : `Not in ${indexRel}: agents only find it by recall`,
        commented ? [`line ${commented.line}: ${commented.text.trim()}`] : [],
        ['add-pointer', 'open'],
      ),
    )
  }
  if (content === null || !t) return out
  if (!commentsReadable(content))
    out.push(
      finding(
        'index-unreadable',
        indexRel,
        `${indexRel} nests too deeply to read as Markdown (thousands of \`>\` or list levels) and holds an HTML comment: Claude Code may load none of it. Flatten the nesting or remove the comment.`,
        [],
        [],
      ),
    )
  const lines = content.replace(/\r\n?/g, '\n').split('\n')
  const cut = t.lineStates.flatMap((s, i) =>
    s === 'cut' && lines[i]!.trim() ? [`line ${i + 1}: ${lines[i]}`] : [],
  )
  if (cut.length)
    out.push(
      finding(
        'index-cut',
        indexRel,
        `${count(cut.length, 'line')} ${isOne(cut.length) ? 'is' : 'are'} past what Claude Code loads (${t.lineCount} lines, ${t.charCount.toLocaleString('en-US')} characters)`,
        cut.slice(0, 8),
        ['compact-index'],
      ),
    )
  // What agents load of a line: a long comment costs them nothing, and compacting leaves it be.
  const loads = lineLoads(lines)
  const long = lines.flatMap((l, i) => {
    const load = loads[i]!
    return load && keptText(l, load).length > MAX_INDEX_LINE_CHARS
      ? [`line ${i + 1}: ${cutText(l, 100)}…`]
      : []
  })
  if (long.length)
    out.push(
      finding(
        'long-index-line',
        indexRel,
        `${count(long.length, 'line')} over ${MAX_INDEX_LINE_CHARS} characters: detail belongs in the memory file`,
        long.slice(0, 8),
        ['compact-index'],
      ),
    )
  return out
}
