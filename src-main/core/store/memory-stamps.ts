import { basename } from 'node:path'
import { ENTRYPOINT_NAME, isPathInside } from '../paths/auto-mem-path.js'
import type { MemoryStamp } from './memory-format.js'
import { keepLastOfKey, ownValuesOn } from './yaml-keys.js'
import { lineBreaksLike } from './line-breaks.js'
import {
  isRecord,
  MAX_FRONTMATTER_CHARS,
  parseFrontmatterData,
  splitFrontmatter,
  yamlLibrary,
} from './frontmatter.js'

export interface StampPolicy {
  /** What the user's client stamps on every write (empty: nothing new is added). */
  stamps: readonly MemoryStamp[]
  /** The session whose turn a run extracts: the provenance of what it writes. */
  sessionId?: string
  now?: number
}

/**
 * The text to write for a memory, as the user's client would leave it: a `modified` the file keeps
 * (under `metadata` or at the top level) is bumped on every write; the client's provenance keys are
 * added when it stamps them (`node_type` first, `originSessionId` of the first writer, kept when a
 * rewrite dropped it). Every other key, comment and quoting stays as written. A text without
 * readable frontmatter is written as it is.
 */
export function stampMemoryText(text: string, previous: string | null, policy: StampPolicy): string {
  const block = splitFrontmatter(text)
  // A block too long for any reader (MAX_FRONTMATTER_CHARS) is body: nothing there is stamped.
  if (!block || block.yaml.length > MAX_FRONTMATTER_CHARS) return text
  const Y = yamlLibrary()
  const doc = Y.parseDocument(block.yaml, { schema: 'core', uniqueKeys: false })
  if (doc.errors.length || !Y.isMap(doc.contents)) return text
  // The keys stamped, each as it is read: the last of a key written twice (the text is returned
  // as it was when nothing is stamped).
  for (const k of ['modified', 'metadata']) keepLastOfKey(doc, [k])
  for (const k of ['modified', 'originSessionId', 'node_type']) keepLastOfKey(doc, ['metadata', k])
  const before = previous === null ? undefined : parseFrontmatterData(previous)?.data
  const was = isRecord(before?.metadata) ? before.metadata : {}
  const now = new Date(policy.now ?? Date.now()).toISOString()
  const wants = (k: MemoryStamp) => policy.stamps.includes(k)
  let changed = false
  const set = (path: string[], value: unknown) => {
    ownValuesOn(doc, path)
    doc.setIn(path, value)
    changed = true
  }

  if (doc.has('modified')) set(['modified'], now)
  const keeps = (k: string) => doc.hasIn(['metadata', k]) || was[k] !== undefined
  if (!doc.hasIn(['metadata', 'originSessionId'])) {
    const origin = was.originSessionId ?? (wants('originSessionId') ? policy.sessionId : undefined)
    if (typeof origin === 'string') set(['metadata', 'originSessionId'], origin)
  }
  if (wants('modified') || keeps('modified')) set(['metadata', 'modified'], now)
  if ((wants('node_type') || was.node_type !== undefined) && !doc.hasIn(['metadata', 'node_type'])) {
    const nodeType = typeof was.node_type === 'string' ? was.node_type : 'memory'
    ownValuesOn(doc, ['metadata'])
    const meta = doc.get('metadata', true)
    if (Y.isMap(meta)) meta.items.unshift(doc.createPair('node_type', nodeType))
    else doc.set('metadata', doc.createNode({ node_type: nodeType }))
    changed = true
  }
  if (!changed) return text
  const yaml = lineBreaksLike(doc.toString({ lineWidth: 0, flowCollectionPadding: false }), block.yaml)
  return text.slice(0, block.yamlStart) + yaml + text.slice(block.yamlStart + block.yaml.length)
}

/**
 * ToolContext.stamp for a memory agent's run: topic files under these dirs get the stamps of the
 * policy; MEMORY.md and everything else is written as given.
 */
export function memoryStamper(dirs: readonly string[], policy: StampPolicy) {
  return (path: string, before: string | null, after: string): string => {
    const topic =
      path.endsWith('.md') && basename(path) !== ENTRYPOINT_NAME && dirs.some((d) => isPathInside(path, d))
    return topic ? stampedUnlessUnchanged(after, before, policy) : after
  }
}

/**
 * stampMemoryText, except for a memory written back as it was: nothing changed, so nothing is
 * stamped. Models often rewrite a memory as they read it, and a bumped `modified` alone made a
 * consolidation that changed nothing a proposal to review (and an MCP write of the same text a
 * change in history).
 */
export function stampedUnlessUnchanged(after: string, before: string | null, policy: StampPolicy): string {
  return before !== null && unchangedButStamps(after, before, policy)
    ? before
    : stampMemoryText(after, before, policy)
}

/** Whether `after`, stamped as `before` was (at its own `modified`), is `before` itself. */
function unchangedButStamps(after: string, before: string, policy: StampPolicy): boolean {
  if (after === before) return true
  const data = parseFrontmatterData(before)?.data
  const meta = isRecord(data?.metadata) ? data.metadata : {}
  const at = Date.parse(String(meta.modified ?? data?.modified ?? ''))
  return !Number.isNaN(at) && stampMemoryText(after, before, { ...policy, now: at }) === before
}
