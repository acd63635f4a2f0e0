import { memoryNameProblem } from '../../../src-shared/memory-names.js'
import { kebabWords, type MemoryFormat } from './frontmatter.js'

/** Bytes of UTF-8 a slug keeps: well inside a file name's limit in any script. */
const MAX_SLUG_BYTES = 120

/** A title's ASCII letters, digits and `_`, lower-case, words joined by `_` (empty when it has none). */
function snakeWords(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .slice(0, 60)
}

/** A title's letters and digits in any script, lower-case, joined by `sep`, cut to MAX_SLUG_BYTES. */
function scriptWords(name: string, sep: string): string {
  const words =
    name
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? []
  let slug = ''
  let bytes = 0
  for (const ch of words.join(sep)) {
    bytes += Buffer.byteLength(ch)
    if (bytes > MAX_SLUG_BYTES) break
    slug += ch
  }
  return slug.endsWith(sep) ? slug.slice(0, -sep.length) : slug
}

/**
 * The file name (without `.md`) a new memory gets from its title: `_`-joined words (flat) or
 * `-`-joined (nested, as newer Claude Code names files). Latin letters and digits when the title
 * has any, as Claude Code's own files are; else its words in their own script, so that titles in
 * Japanese or Russian each get a file of their own instead of one shared fallback. A slug the name
 * rule refuses (`memory`, which is MEMORY.md on a case-insensitive file system; `con`) gets a
 * suffix.
 */
export function memoryFileSlug(name: string, format: MemoryFormat = 'flat'): string {
  const sep = format === 'nested' ? '-' : '_'
  const slug = (format === 'nested' ? kebabWords(name) : snakeWords(name)) || scriptWords(name, sep)
  if (!slug) return 'note'
  if (!memoryNameProblem(`${slug}.md`)) return slug
  const suffixed = `${slug}${sep}note`
  return memoryNameProblem(`${suffixed}.md`) ? 'note' : suffixed
}
