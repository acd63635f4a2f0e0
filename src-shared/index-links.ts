/**
 * The links of a MEMORY.md line, as whoever wrote the line wrote them: Memdir's `[T](file.md)`, a
 * user's `[T](./file.md)`, `[T](<my file.md>)`, `[T](my%20file.md)`, `[T](file.md "tooltip")`, a
 * reference definition `[t]: file.md`, or a wikilink `[[file]]`, `[[file|Title]]` (Obsidian's default
 * link, which a user who opens the memory dir as a vault gets). The one reading of pointers that saving, renaming and
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
/** `<scheme:…>`, CommonMark's autolink — not a link's `](<…>)` destination, which INLINE reads. */
const AUTOLINK = /(?<!\]\(\s*)<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/g
/** `[[target]]`, `[[target#heading]]`, `[[target|shown text]]` (and `![[…]]`, an embed of one). */
const WIKI = /\[\[([^[\]|#^\n]+)(?:[#^][^[\]|\n]*)?(?:\|([^[\]\n]*))?\]\]/dg
/** What a wikilink names when it is not a note: Obsidian's attachments. Any other name is `<name>.md`. */
const ATTACHMENT =
  /\.(?:png|jpe?g|gif|bmp|svg|webp|avif|pdf|mp3|wav|m4a|ogg|flac|webm|mp4|mov|mkv|canvas|base)$/i

export interface IndexLink {
  /** The destination as written, without `<…>` or a leading `./`. */
  raw: string
  /** The same, percent-decoded (the raw text when it is not valid percent-encoding). */
  decoded: string
  /** Where the destination stands in the line, `<…>` included: what a rename replaces. */
  start: number
  end: number
  /** Where the whole link ends (after its `)` or `]]`), and where its `](`, `[label]:` or `[[` began. */
  after: number
  from: number
  /** A wikilink: the text it shows (its `|text`, else its target), and whether it left `.md` out. */
  wiki?: { shown: string; bare: boolean }
  /** A Markdown link's `#heading` or `?query` after the file (`notes.md#pool`): kept by a rename. */
  fragment?: string
}

const decoded = (raw: string) => {
  try {
    return decodeURI(raw)
  } catch {
    return raw // a literal % in a file name
  }
}

/**
 * Where a link leads, from its target as written (`written`: a Markdown link's destination, or a
 * wikilink's target, which names `<target>.md` unless it ends in `.md` or names an attachment).
 */
export function writtenLink(written: string, wiki: boolean): Pick<IndexLink, 'raw' | 'decoded' | 'wiki'> {
  const named = written.startsWith('./') ? written.slice(2) : written
  if (!wiki) return { raw: named, decoded: decoded(named) }
  const bare = !/\.md$/i.test(named) && !ATTACHMENT.test(named)
  const raw = bare ? `${named}.md` : named
  return { raw, decoded: raw, wiki: { shown: named.replace(/\.md$/i, ''), bare } }
}

function linkOf(m: RegExpExecArray): IndexLink {
  const angled = m[1] !== undefined
  const [from, to] = m.indices![angled ? 1 : 2]!
  // Fields copied one by one: a spread of the builder's object made reading a line ~6× slower, and
  // an undo or a batch fix reads every line of MEMORY.md once per finding.
  const written = (angled ? m[1] : m[2])!.trim()
  // `notes.md#pool` leads to notes.md (a `#` before the `.md` is the file's own: `c#notes.md`).
  const part = FRAGMENT.exec(written)
  const target = writtenLink(part ? part[1]! : written, false)
  const link: IndexLink = {
    raw: target.raw,
    decoded: target.decoded,
    start: angled ? from - 1 : from,
    end: angled ? to + 1 : to,
    after: m.index + m[0].length,
    from: m.index,
  }
  if (part) link.fragment = part[2]!
  return link
}

const FRAGMENT = /^(.*?\.md)([#?].*)$/i

function wikiLinkOf(m: RegExpExecArray): IndexLink {
  const [from] = m.indices![1]!
  const written = m[1]!.trim()
  const lead = m[1]!.length - m[1]!.trimStart().length
  const { raw, wiki } = writtenLink(written, true)
  return {
    raw,
    decoded: raw,
    start: from + lead,
    end: from + lead + written.length,
    after: m.index + m[0].length,
    from: m.index,
    wiki: { shown: m[2]?.trim() || wiki!.shown, bare: wiki!.bare },
  }
}

/** Every link of one line, whatever it leads to, in the order they stand. */
function linksIn(line: string): IndexLink[] {
  const ref = REFERENCE.exec(line)
  if (ref) return [linkOf(ref)]
  const inline = [...line.matchAll(INLINE)].map(linkOf)
  if (!line.includes('[[')) return inline
  // `[[…]]` inside a link's destination (a file named `[[w]].md`) is part of that file's name. Both
  // lists stand in line order and the inline links do not overlap: one walk, not one per pair (a
  // line of thousands of each took seconds).
  let next = 0
  const wiki = [...line.matchAll(WIKI)].map(wikiLinkOf).filter((w) => {
    while (next < inline.length && inline[next]!.after <= w.from) next++
    const l = inline[next]
    return !(l && w.after > l.from)
  })
  return [...inline, ...wiki].sort((a, b) => a.from - b.from)
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
 * home path, a `file:` URL (also as an autolink) or a drive, or enough `..` (in any spelling: `%2e%2e`, a backslash,
 * fullwidth dots) to climb above it. An index points at memory files and web pages; one of these
 * would send the agent that loads it to a file outside memory — and team/MEMORY.md comes from teammates.
 */
export function linksLeavingIndex(content: string): { line: number; destination: string; text: string }[] {
  return content.split(/\r?\n/).flatMap((text, i) => {
    // An autolink is never a pointer (it has a scheme), but `<file:///…>` leads to a file all the same.
    const destinations = [
      ...linksIn(text).map((l) => l.raw),
      ...[...text.matchAll(AUTOLINK)].map((m) => m[1]!),
    ]
    return destinations.filter(leavesIndexDir).map((destination) => ({ line: i + 1, destination, text }))
  })
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

/** A wikilink that names a file without its folder (`[[deploy.md]]`): found by name in any folder, as Obsidian finds it. */
export const namesFileAnywhere = (link: Pick<IndexLink, 'raw' | 'wiki'>) =>
  link.wiki !== undefined && !link.raw.includes('/')

/** Whether `link` leads to `pointer` (a path relative to the index's dir). */
export const linksTo = (link: IndexLink, pointer: string) =>
  link.raw === pointer ||
  link.decoded === pointer ||
  (namesFileAnywhere(link) && pointer.endsWith(`/${link.raw}`))

/**
 * linksTo for many pointers at once: which of `pointers` a link leads to, found by its target, or
 * (namesFileAnywhere) by the file name of a pointer in a folder, without a pass over every pointer.
 */
export function pointersLinkedBy(pointers: readonly string[]): (link: IndexLink) => string[] {
  const all = new Set(pointers)
  const inFolderByName = new Map<string, string[]>()
  for (const p of all) {
    const slash = p.lastIndexOf('/')
    if (slash < 0) continue
    const name = p.slice(slash + 1)
    const same = inFolderByName.get(name) ?? []
    inFolderByName.set(name, same)
    same.push(p)
  }
  return (link) => {
    const hits = new Set<string>()
    if (all.has(link.raw)) hits.add(link.raw)
    if (all.has(link.decoded)) hits.add(link.decoded)
    if (namesFileAnywhere(link)) for (const p of inFolderByName.get(link.raw) ?? []) hits.add(p)
    return [...hits]
  }
}

/** `rel` (which may climb with `..`) from the folder `dir` ('' for the top); undefined when it climbs above the top. */
function joinedPath(dir: string, rel: string): string | undefined {
  const out = dir ? dir.split('/') : []
  for (const seg of rel.split('/')) {
    if (seg === '..') {
      if (!out.length) return undefined
      out.pop()
    } else if (seg && seg !== '.') out.push(seg)
  }
  return out.join('/')
}

/**
 * The memory a link leads to, among `files` (paths from the memory dir), for a link written in a
 * file in the folder `fromDir` ('' for the top): the file at its path from there; for a wikilink
 * that names a file without its folder, the file of that name nearest the top (as Obsidian finds
 * it), else the memory whose frontmatter `name` it is (newer Claude Code links memories by name).
 * Undefined when it leads to none of them.
 */
export function linkedMemory(
  link: Pick<IndexLink, 'raw' | 'decoded' | 'wiki'>,
  fromDir: string,
  files: readonly string[],
  nameOf: (file: string) => string | undefined = () => undefined,
): string | undefined {
  const present = new Set(files)
  for (const written of [link.decoded, link.raw]) {
    const path = joinedPath(fromDir, written)
    if (path !== undefined && present.has(path)) return path
  }
  if (!namesFileAnywhere(link)) return undefined
  const named = files.filter((f) => f === link.raw || f.endsWith(`/${link.raw}`))
  const nearest = named.sort((a, b) => a.split('/').length - b.split('/').length || a.length - b.length)[0]
  if (nearest) return nearest
  const wanted = link.raw.replace(/\.md$/, '').trim().toLowerCase()
  return files.find((f) => nameOf(f)?.trim().toLowerCase() === wanted)
}

/** A wikilink's target cannot hold these; a memory whose name has one is linked the Markdown way. */
const NOT_IN_WIKILINK = /[[\]|#^]/

/**
 * `line` with `link` (one of its links) leading to `to` instead, written as the line wrote it: a
 * wikilink stays one, without `.md` if it had none (with the same shown text).
 */
export function retargetLink(line: string, link: IndexLink, to: string): string {
  if (!link.wiki)
    return (
      line.slice(0, link.start) +
      destinationLike(line.slice(link.start, link.end), link, to) +
      line.slice(link.end)
    )
  if (NOT_IN_WIKILINK.test(to)) {
    const embed = line[link.from - 1] === '!' ? 1 : 0
    return `${line.slice(0, link.from - embed)}[${link.wiki.shown}](${linkDestination(to)})${line.slice(link.after)}`
  }
  return line.slice(0, link.start) + (link.wiki.bare ? to.replace(/\.md$/, '') : to) + line.slice(link.end)
}

/**
 * `to` as a Markdown link's destination spelled the way `written` (the old one) was: with its `./`,
 * percent-encoded if it was, in `<…>` if it was or must be; the old `#heading` kept.
 */
function destinationLike(written: string, link: IndexLink, to: string): string {
  const inner = written.startsWith('<') ? written.slice(1, -1).trim() : written
  const encoded = link.raw !== link.decoded ? encodeURI(to) : to
  const dest = (inner.startsWith('./') ? './' : '') + encoded
  return written.startsWith('<') && !/[\s()]/.test(dest)
    ? `<${dest}${link.fragment ?? ''}>`
    : linkDestination(dest, link.fragment)
}

/**
 * A destination as Memdir writes it: bare, or in `<…>` when the name has a space or parenthesis
 * (with the `#heading` a user's link had, if any).
 */
export const linkDestination = (pointer: string, fragment = '') =>
  /[\s()]/.test(pointer) ? `<${pointer}${fragment}>` : pointer + fragment
