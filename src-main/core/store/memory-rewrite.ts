import {
  frontmatterData,
  isRecord,
  lineBreaksLike,
  memoryBodyText,
  type MemoryFields,
  type MemoryFormat,
  type ParsedMemory,
  serializeMemoryFile,
  splitFrontmatter,
  yamlLibrary,
} from './frontmatter.js'
import { keepLastOfKey } from './yaml-keys.js'

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
  if (!existing || !block) return serializeMemoryFile(fields, extra, style)
  const Y = yamlLibrary()
  const doc = Y.parseDocument(block.yaml, { schema: 'core', uniqueKeys: false })
  const now = doc.errors.length ? undefined : (doc.toJS() as unknown)
  if (!isRecord(now) || !Y.isMap(doc.contents)) return serializeMemoryFile(fields, extra, style)
  const wanted = frontmatterData(fields, extra, style)
  let changed = false
  for (const [k, v] of Object.entries(wanted))
    if (!same(now[k], v)) {
      keepLastOfKey(doc, [k])
      doc.set(k, v)
      changed = true
    }
  for (const k of Object.keys(now))
    if (!(k in wanted)) {
      keepLastOfKey(doc, [k])
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
