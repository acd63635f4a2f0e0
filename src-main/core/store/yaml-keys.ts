import type { Document } from 'yaml'
import { yamlLibrary } from './frontmatter.js'

/**
 * Leaves only the last `key:` of a mapping written twice (`name: one` then `name: two`). A reader
 * takes the last, but the YAML library sets and deletes the first: an update of `name` wrote the
 * shadowed line and the file read back unchanged. Called only for a key about to change, so a key
 * written twice that nothing touches stays as written.
 */
export function keepLastOfKey(doc: Document, path: readonly string[]): void {
  const Y = yamlLibrary()
  const map = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents
  if (!Y.isMap(map)) return
  const key = path[path.length - 1]
  const named = map.items.filter((p) => (Y.isScalar(p.key) ? p.key.value : p.key) === key)
  if (named.length < 2) return
  const shadowed = new Set(named.slice(0, -1))
  map.items = map.items.filter((p) => !shadowed.has(p))
}
