/**
 * The links of a MEMORY.md line, as whoever wrote the line wrote them: Memdir's `[T](file.md)`, a
 * user's `[T](./file.md)`, `[T](<my file.md>)`, `[T](my%20file.md)`, `[T](file.md "tooltip")`, or a
 * reference definition `[t]: file.md`. The one reading of pointers that saving, renaming and
 * deleting a memory, restoring one and Health all use, so none of them misses a line another one
 * sees (a missed line meant a second pointer appended under the user's own).
 */

import { spellingsOf } from './memory-names.js'

/**
 * `](` destination, optional title, `)`: the destination in `<…>` or bare — words, with the spaces
 * between them tolerated (older lines). Written so no part can match what its neighbour matches:
 * with two adjacent `\s*` a line of many spaces took quadratic time.
 */
const INLINE =
  /\]\(\s*(?:<([^<>\n]+)>|([^\s()<>]+(?:[ \t]+[^\s()<>"']+)*))(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/dg
/** `[label]: destination` at the start of a line. */
const REFERENCE = /^ {0,3}\[[^\]\n]+\]:[ \t]*(?:<([^<>\n]+)>|(\S+))/d

export interface IndexLink {
  /** The destination as written, without `<…>` or a leading `./`. */
  raw: string
  /** The same, percent-decoded (the raw text when it is not valid percent-encoding). */
  decoded: string
  /** Where the destination stands in the line, `<…>` included: what a rename replaces. */
  start: number
  end: number
  /** Where the whole link ends (after its `)`), and where its `](` or `[label]:` began. */
  after: number
  from: number
}

const decoded = (raw: string) => {
  try {
    return decodeURI(raw)
  } catch {
    return raw // a literal % in a file name
  }
}

function linkOf(m: RegExpExecArray): IndexLink {
  const angled = m[1] !== undefined
  const [from, to] = m.indices![angled ? 1 : 2]!
  const written = (angled ? m[1] : m[2])!.trim()
  const raw = written.startsWith('./') ? written.slice(2) : written
  return {
    raw,
    decoded: decoded(raw),
    start: angled ? from - 1 : from,
    end: angled ? to + 1 : to,
    after: m.index + m[0].length,
    from: m.index,
  }
}

/** Every link of one line, whatever it leads to. */
function linksIn(line: string): IndexLink[] {
  const ref = REFERENCE.exec(line)
  return ref ? [linkOf(ref)] : [...line.matchAll(INLINE)].map(linkOf)
}

/** Every link of one line that leads to a relative `.md` file (URLs and absolute paths are not pointers). */
export function indexLinksIn(line: string): IndexLink[] {
  return linksIn(line).filter(
    (l) => l.decoded.endsWith('.md') && !/^[a-z][a-z0-9+.-]*:/i.test(l.raw) && !l.raw.startsWith('/'),
  )
}

/** Whether a link's destination reaches a file above the index's own dir, or anywhere by absolute path. */
function leavesIndexDir(destination: string): boolean {
  return spellingsOf(destination).some((s) => {
    const path = s.trim().replace(/\\/g, '/')
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return /^(?:file:|[a-z]:)/i.test(path) // web links are not files
    if (path.startsWith('/') || path.startsWith('~')) return true
    let depth = 0
    for (const seg of path.split(/[?#]/)[0]!.split('/')) {
      if (seg === '..') depth--
      else if (seg && seg !== '.') depth++
      if (depth < 0) return true
    }
    return false
  })
}

/**
 * The links of an index (MEMORY.md, or team/MEMORY.md) that lead out of its dir: an absolute or
 * home path, a `file:` URL or a drive, or enough `..` (in any spelling: `%2e%2e`, a backslash,
 * fullwidth dots) to climb above it. An index points at memory files and web pages; one of these
 * would send the agent that loads it to a file outside memory — and team/MEMORY.md comes from teammates.
 */
export function linksLeavingIndex(content: string): { line: number; destination: string; text: string }[] {
  return content.split(/\r?\n/).flatMap((text, i) =>
    linksIn(text)
      .filter((l) => leavesIndexDir(l.raw))
      .map((l) => ({ line: i + 1, destination: l.raw, text })),
  )
}

/** Why an index cannot hold these links out of its dir (from linksLeavingIndex), or undefined when there are none. */
export function linksLeavingProblem(
  links: readonly { line: number; destination: string }[],
  where = 'the memory dir',
): string | undefined {
  const first = links[0]
  if (!first) return undefined
  return `line ${first.line} links to ${JSON.stringify(first.destination.slice(0, 120))}, outside ${where}${
    links.length > 1 ? ` (and ${links.length - 1} more)` : ''
  }: an index links memory files and web pages only`
}

/** Why `content` cannot be an index's text (a link leads out of its dir), or undefined when it can. */
export const indexLinkProblem = (content: string, where?: string) =>
  linksLeavingProblem(linksLeavingIndex(content), where)

/** Whether `link` leads to `pointer` (a path relative to the index's dir). */
export const linksTo = (link: IndexLink, pointer: string) => link.raw === pointer || link.decoded === pointer

/** A destination as Memdir writes it: bare, or in `<…>` when the name has a space or parenthesis. */
export const linkDestination = (pointer: string) => (/[\s()]/.test(pointer) ? `<${pointer}>` : pointer)
