/**
 * The links of a MEMORY.md line, as whoever wrote the line wrote them: Memdir's `[T](file.md)`, a
 * user's `[T](./file.md)`, `[T](<my file.md>)`, `[T](my%20file.md)`, `[T](file.md "tooltip")`, or a
 * reference definition `[t]: file.md`. The one reading of pointers that saving, renaming and
 * deleting a memory, restoring one and Health all use, so none of them misses a line another one
 * sees (a missed line meant a second pointer appended under the user's own).
 */

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

/** Every link of one line that leads to a relative `.md` file (URLs and absolute paths are not pointers). */
export function indexLinksIn(line: string): IndexLink[] {
  const out: IndexLink[] = []
  const ref = REFERENCE.exec(line)
  if (ref) out.push(linkOf(ref))
  else for (const m of line.matchAll(INLINE)) out.push(linkOf(m))
  return out.filter(
    (l) => l.decoded.endsWith('.md') && !/^[a-z][a-z0-9+.-]*:/i.test(l.raw) && !l.raw.startsWith('/'),
  )
}

/** Whether `link` leads to `pointer` (a path relative to the index's dir). */
export const linksTo = (link: IndexLink, pointer: string) => link.raw === pointer || link.decoded === pointer

/** A destination as Memdir writes it: bare, or in `<…>` when the name has a space or parenthesis. */
export const linkDestination = (pointer: string) => (/[\s()]/.test(pointer) ? `<${pointer}>` : pointer)
