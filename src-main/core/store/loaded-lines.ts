import { Lexer, type Token } from 'marked'

/**
 * What of MEMORY.md an agent loads, line by line (SPEC §3/§10). Claude Code drops a closed
 * frontmatter block at the top; it then reads the rest as Markdown (marked, without GFM) and, in
 * each top-level HTML block that starts with a comment and closes one, drops every `<!-- … -->`:
 * the block goes when nothing but whitespace is left of it, else what is left stays. So a comment
 * inside a list item or a code fence stays, an unclosed one stays whole, and text after a block's
 * closing `-->` stays (test/fixtures/memory-md records what the real clients load).
 */

/**
 * One raw line as loaded: the `[from, to)` ranges of it that stay (a `\r` ending is not part of
 * it), and whether its line break was in a comment, so the text goes on with the next line that
 * stays. Null: nothing of the line, nor its line break, is loaded.
 */
export type LineLoad = { kept: readonly (readonly [number, number])[]; joinsNext: boolean } | null

const bare = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line)

/** Where a closed frontmatter block ends (its closing line's index), or -1. */
function frontmatterEnd(lines: readonly string[]): number {
  // After a byte order mark too (Claude Code 2.1.88 kept that block; newer clients strip it).
  if (lines[0]?.replace(/^\uFEFF/, '').trimEnd() !== '---') return -1
  return lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---')
}

/**
 * The top-level Markdown blocks of `text`, or undefined when the lexer cannot read it: a deep
 * enough nesting (thousands of `>`) overflows its stack. Claude Code then loads none of the index
 * (2.1.88 from ~2,100 levels, 2.1.332 from 10,000–20,000; this process's limit is its own), so no
 * one reading is right: edits read it as if it had no comments, and Health says it may not load.
 */
function blocksOf(text: string): Token[] | undefined {
  try {
    return new Lexer({ gfm: false }).lex(text)
  } catch (e) {
    if (e instanceof RangeError) return undefined
    throw e
  }
}

/** Whether Claude Code can read an index's comments at all (see blocksOf); one without any can be. */
export function commentsReadable(text: string): boolean {
  return !text.includes('<!--') || blocksOf(text.replace(/\r\n?/g, '\n')) !== undefined
}

/** The `[from, to)` spans of `text` that an agent does not load: the comments of comment blocks. */
function commentSpans(text: string): [number, number][] {
  if (!text.includes('<!--')) return []
  const spans: [number, number][] = []
  let at = 0
  for (const token of blocksOf(text) ?? []) {
    const raw = token.raw
    const start = at
    at += raw.length
    if (token.type !== 'html' || !raw.trimStart().startsWith('<!--') || !raw.includes('-->')) continue
    const comments = [...raw.matchAll(/<!--[\s\S]*?-->/g)].map((m): [number, number] => [
      start + m.index,
      start + m.index + m[0].length,
    ])
    const left = comments.reduceRight((s, [a, b]) => s.slice(0, a - start) + s.slice(b - start), raw)
    if (left.trim()) spans.push(...comments)
    else spans.push([start, at])
  }
  return spans
}

/** For each of `lines` (an index split at `\n`), what of it an agent loads. */
export function lineLoads(lines: readonly string[]): LineLoad[] {
  const end = frontmatterEnd(lines)
  const first = end + 1
  const body = lines.slice(first).map(bare)
  const spans = commentSpans(body.join('\n'))
  const loads: LineLoad[] = lines.slice(0, first).map(() => null)
  if (!spans.length) return loads.concat(body.map((l) => ({ kept: [[0, l.length]], joinsNext: false })))
  let s = 0 // where the line starts in the body text
  let k = 0 // the first span that may reach this line
  body.forEach((line, i) => {
    const e = s + line.length
    while (k < spans.length && spans[k]![1] <= s) k++
    const kept: [number, number][] = []
    let from = s
    for (let j = k; j < spans.length && spans[j]![0] < e; j++) {
      const [a, b] = spans[j]!
      if (a > from) kept.push([from - s, a - s])
      from = Math.max(from, b)
    }
    if (from < e) kept.push([from - s, e - s])
    // The line break at `e` is in a span: what stays of the line runs on into the next one.
    let breakGone = false
    for (let j = k; i < body.length - 1 && j < spans.length && spans[j]![0] <= e; j++)
      breakGone ||= e < spans[j]![1]
    const gone = kept.length === 0 && (breakGone || (line.length > 0 && i === body.length - 1))
    loads.push(gone ? null : { kept, joinsNext: breakGone })
    s = e + 1
  })
  return loads
}

/** The text of a loaded line (its kept ranges). */
export function keptText(line: string, load: NonNullable<LineLoad>): string {
  const b = bare(line)
  if (load.kept.length === 1 && load.kept[0]![0] === 0 && load.kept[0]![1] === b.length) return b
  return load.kept.map(([a, z]) => b.slice(a, z)).join('')
}

/** Whether `[from, to)` of a line stands wholly in what an agent loads of it. */
export function isLoaded(load: LineLoad, from: number, to: number): boolean {
  return load !== null && load.kept.some(([a, z]) => a <= from && to <= z)
}

/** Whether an agent loads all of `line`: no part of it, nor its line break, in a comment. */
export function loadedWhole(line: string, load: LineLoad): boolean {
  return load !== null && !load.joinsNext && keptText(line, load) === bare(line)
}
