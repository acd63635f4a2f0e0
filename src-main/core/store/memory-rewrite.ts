import { rethrowUnless } from '../../../src-shared/errors.js'
import {
  frontmatterData,
  isRecord,
  MAX_FRONTMATTER_CHARS,
  memoryBodyText,
  type MemoryFields,
  type MemoryFormat,
  type ParsedMemory,
  serializeMemoryFile,
  splitFrontmatter,
  yamlLibrary,
  isYamlFailure,
} from './frontmatter.js'
import { lineBreaksLike } from './line-breaks.js'
import { keepLastOfKey, ownValuesOn } from './yaml-keys.js'

function orUnreadable(read: () => unknown): unknown {
  try {
    return read()
  } catch (e) {
    rethrowUnless(isYamlFailure(e), e)
    return undefined
  }
}

/** Two parsed YAML values alike, whatever the order of their keys. */
function same(a: unknown, b: unknown): boolean {
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same(a[k], b[k]))
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]))
  return a === b
}

/**
 * A memory's text after an update, keeping what someone else wrote in it: the frontmatter block as
 * it stands (comments, quoting, flow lists, key order, line endings), with only the values the
 * update changes set in place, then the new body. A file whose frontmatter cannot be edited in place
 * (none, or YAML the parser refuses) is written fresh, as serializeMemoryFile writes a new memory.
 * `existing` is the file now, and `parsed` what parseMemoryFile read from it.
 */
export function rewriteMemoryFile(
  existing: string | null,
  parsed: ParsedMemory | undefined,
  fields: MemoryFields,
  format: MemoryFormat,
): string {
  const extra = parsed?.data ?? {}
  const style = parsed?.format ?? format
  const block = existing === null ? undefined : splitFrontmatter(existing)
  // A block too long to be read (MAX_FRONTMATTER_CHARS) is body to the editor and to this update:
  // edited in place, its thousands of keys the update did not know were deleted one by one (seconds).
  if (!existing || !block || block.yaml.length > MAX_FRONTMATTER_CHARS)
    return serializeMemoryFile(fields, extra, style)
  const Y = yamlLibrary()
  const doc = Y.parseDocument(block.yaml, { schema: 'core', uniqueKeys: false })
  // YAML with too many aliases is read as the quoting retry reads it (frontmatter.ts): as text.
  const now = doc.errors.length ? undefined : orUnreadable(() => doc.toJS() as unknown)
  if (!isRecord(now) || !Y.isMap(doc.contents)) return serializeMemoryFile(fields, extra, style)
  const wanted = frontmatterData(fields, extra, style)
  let changed = false
  for (const [k, v] of Object.entries(wanted))
    if (!same(now[k], v)) {
      keepLastOfKey(doc, [k])
      ownValuesOn(doc, [k])
      doc.set(k, v)
      changed = true
    }
  for (const k of Object.keys(now))
    if (!(k in wanted)) {
      keepLastOfKey(doc, [k])
      ownValuesOn(doc, [k])
      doc.delete(k)
      changed = true
    }
  const closing = existing.slice(block.yamlStart + block.yaml.length, block.bodyStart)
  const eol = closing.endsWith('\r\n') ? '\r\n' : '\n'
  const yaml = changed
    ? lineBreaksLike(doc.toString({ lineWidth: 0, flowCollectionPadding: false }), block.yaml)
    : block.yaml
  const oldBody = existing.slice(block.bodyStart)
  const gap = /^\r?\n/.test(oldBody) ? eol : ''
  // A body saved with CRLF keeps CRLF (one with no line break follows the block), so a changed
  // description does not show as every line of someone's Windows-saved body changed.
  const body = lineBreaksLike(memoryBodyText(fields.body), oldBody.includes('\n') ? oldBody : closing)
  return (
    existing.slice(0, block.yamlStart) +
    yaml +
    (closing.endsWith('\n') ? closing : closing + eol) +
    gap +
    body
  )
}
