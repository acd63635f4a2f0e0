import { MemdirError, rethrowUnless } from './errors.js'
import { codePoint, cutText, loneSurrogate } from './unicode.js'

/**
 * The one rule for the name of a memory file, relative to its memory dir (`testing.md`,
 * `team/deploy.md`) — and so for a team-memory key, which is the same path relative to `team/`.
 * The editor, MCP, review approval, the agents' writes, the team-sync client and the team server
 * all call it: a name one of them accepts, every other one accepts too, and every supported file
 * system (ext4, APFS, NTFS) can hold it.
 */

/** Bytes of UTF-8 per path segment: 255 is every file system's limit, less room for the atomic-write temp name. */
export const MAX_NAME_SEGMENT_BYTES = 200
/** Bytes of UTF-8 for the whole relative name (the memory dir's own path comes on top). */
export const MAX_NAME_BYTES = 500
/** Characters of a memory's `name` field (its title in MEMORY.md). */
export const MAX_TITLE_CHARS = 200

// C0 and C1 controls, DEL, zero-width and invisible marks, bidi embeddings, overrides and isolates,
// line and paragraph separators, the BOM: none may hide in a name shown in terminals and in MEMORY.md.
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/
// Characters NTFS refuses in a name.
const WINDOWS_FORBIDDEN = /[<>:"|?*]/
// Device names Windows reserves, with any extension.
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length

export type NameProblem = { code: 'INVALID_NAME' | 'PATH_TOO_LONG'; message: string }

const invalid = (message: string): NameProblem => ({ code: 'INVALID_NAME', message })

/** Decoded and compatibility-folded spellings an attacker could hide `..` or a separator in. */
export function spellingsOf(name: string): string[] {
  let decoded = name
  try {
    decoded = decodeURIComponent(name)
  } catch (e) {
    rethrowUnless(e instanceof URIError, e)
    /* not URL-encoded: the name itself is checked */
  }
  return [...new Set([name, decoded, name.normalize('NFKC'), decoded.normalize('NFKC')])]
}

/**
 * Why a MEMORY.md line may not point at `name`, or undefined: the part of the name rule that keeps
 * an index safe whoever named the file — no character that breaks or hides part of the line, and
 * nothing that leads out of the memory dir. A file someone else named (`deploy:prod.md`, written by
 * Claude Code on Linux) keeps its pointer though a new file may not be named so (memoryNameProblem).
 */
export function pointerTargetProblem(name: string): NameProblem | undefined {
  if (typeof name !== 'string' || name.length === 0) return invalid('a memory file name is empty')
  const unsafe = UNSAFE.exec(name)
  if (unsafe)
    return invalid(
      `${JSON.stringify(name)} contains a control, invisible or bidi character (${codePoint(unsafe[0])})`,
    )
  if (loneSurrogate(name))
    return invalid(
      `${JSON.stringify(name)} is not well-formed Unicode (a lone surrogate): no file system can hold it`,
    )
  if (name.includes('\\')) return invalid(`${name}: use / between folders, not a backslash`)
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    return invalid(`${name}: give a path relative to the memory dir, not an absolute one`)
  for (const v of spellingsOf(name)) {
    if (v.split('/').some((seg) => seg === '..') || v.includes('\\') || v.startsWith('/'))
      return invalid(`${name}: the path leaves the memory dir`)
  }
  return undefined
}

/**
 * Why `name` cannot name a memory file (or a team key), or undefined when it can. A `/`-separated
 * relative path: no control, invisible or bidi characters, no absolute path, `..`, `.` or empty
 * segment, no backslash, nothing NTFS refuses, no hidden segment, NFC, ends in `.md`, and within
 * the segment and total byte limits.
 */
export function memoryNameProblem(name: string): NameProblem | undefined {
  const unsafe = pointerTargetProblem(name)
  if (unsafe) return unsafe
  if (utf8Bytes(name) > MAX_NAME_BYTES)
    return {
      code: 'PATH_TOO_LONG',
      message: `the name is ${utf8Bytes(name)} bytes long; the limit is ${MAX_NAME_BYTES}`,
    }
  for (const seg of name.split('/')) {
    if (seg === '' || seg === '.') return invalid(`${name}: empty or "." path segment`)
    if (utf8Bytes(seg) > MAX_NAME_SEGMENT_BYTES)
      return {
        code: 'PATH_TOO_LONG',
        message: `"${cutText(seg, 40)}…" is ${utf8Bytes(seg)} bytes long; a file or folder name may have at most ${MAX_NAME_SEGMENT_BYTES}`,
      }
    if (seg.startsWith('.')) return invalid(`${name}: names starting with "." are hidden files`)
    if (WINDOWS_FORBIDDEN.test(seg)) return invalid(`${name}: the characters < > : " | ? * are not allowed`)
    if (/[. ]$/.test(seg) || seg.startsWith(' '))
      return invalid(`${name}: a name may not start with a space or end with a space or a dot`)
    if (WINDOWS_DEVICE.test(seg)) return invalid(`${name}: "${seg}" is a reserved device name on Windows`)
  }
  if (name.normalize('NFC') !== name)
    return invalid(`${name}: not in Unicode NFC form (write it as ${JSON.stringify(name.normalize('NFC'))})`)
  if (!name.endsWith('.md')) return invalid(`${name}: memory files end in .md`)
  if (foldsOntoIndex(name))
    return invalid(
      `${name}: differs from the index MEMORY.md only in case, and on macOS and Windows the two are one file`,
    )
  return undefined
}

/**
 * A name at an index's place (the memory dir's top or team/'s, where a team key also lands) that is
 * MEMORY.md in another case: on a case-insensitive file system, writing it replaces the index.
 * MEMORY.md itself is the index, which the callers that write memories refuse on their own.
 */
function foldsOntoIndex(name: string): boolean {
  const atIndexLevel = name.startsWith('team/') ? name.slice('team/'.length) : name
  return (
    !atIndexLevel.includes('/') && atIndexLevel !== 'MEMORY.md' && nameFoldKey(atIndexLevel) === 'memory.md'
  )
}

/** Throws MemdirError (INVALID_NAME or PATH_TOO_LONG) unless `name` may name a memory file; returns it. */
export function checkMemoryName(name: string): string {
  const p = memoryNameProblem(name)
  if (p) throw new MemdirError(p.code, p.message, { name })
  return name
}

/** Why a memory's title (`name` field) or one-line description cannot be written, or undefined. */
export function memoryTitleProblem(field: 'name' | 'description', value: string): NameProblem | undefined {
  // A description is one line: its line breaks and tabs become spaces when written. A name is a title.
  const unsafe = (field === 'description' ? value.replace(/[\t\r\n]/g, ' ') : value).match(UNSAFE)
  if (unsafe)
    return invalid(
      `the ${field} contains a control, invisible or bidi character (${codePoint(unsafe[0])}); ${
        field === 'name' ? 'a name is one line of plain text' : 'write it as plain text'
      }`,
    )
  // Counted as a person counts them: an emoji or a rare CJK character is one, not two UTF-16 units.
  const chars = field === 'name' ? [...value].length : 0
  if (chars > MAX_TITLE_CHARS)
    return invalid(`the name is ${chars} characters long; a name may be at most ${MAX_TITLE_CHARS}`)
  return undefined
}

/**
 * Throws MemdirError unless the memory's name and description are plain text. A field equal to
 * its value in `before` (the file's frontmatter now) is someone else's as they wrote it, and passes.
 */
export function checkMemoryTitle(
  fields: { name: string; description: string },
  before?: Record<string, unknown>,
): void {
  for (const field of ['name', 'description'] as const) {
    if (before && before[field] === fields[field]) continue
    const p = memoryTitleProblem(field, fields[field])
    if (p) throw new MemdirError(p.code, p.message, { field })
  }
}

/**
 * Keys that two clients on a case-insensitive or normalising file system (APFS, NTFS) would write
 * to one file: the NFC form, lower-cased.
 */
export const nameFoldKey = (name: string) => name.normalize('NFC').toLowerCase()
