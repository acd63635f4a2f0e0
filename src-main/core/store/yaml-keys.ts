import type { Document, Node } from 'yaml'
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

/**
 * Makes the values on `path` this key's own before Memdir changes or deletes it. Without this the
 * change leaks into someone else's keys through YAML's anchors: with `name: &n Old` and
 * `title: *n`, setting `name` set `title` too, and replacing an anchored `metadata: &m` map or
 * deleting an anchored key left `*m` pointing at nothing, so the save failed. So each node on the
 * path that is an alias becomes a copy of what it points at, and every alias elsewhere that points
 * at a node on the path becomes a copy of that node as it is now. The anchors stay as written.
 */
export function ownValuesOn(doc: Document, path: readonly string[]): void {
  const Y = yamlLibrary()
  const copyOf = (node: Node): Node => {
    const copy = node.clone() as Node
    copy.anchor = undefined
    return copy
  }
  for (let i = 1; i <= path.length; i++) {
    const at = path.slice(0, i)
    let node: unknown = doc.getIn(at, true)
    if (Y.isAlias(node)) {
      const target = node.resolve(doc)
      if (!target) return
      doc.setIn(at, (node = copyOf(target)))
    }
    if (!Y.isNode(node) || !node.anchor) continue
    const anchored = node
    const inside = new Set<unknown>()
    Y.visit(anchored, { Node: (_, n) => void inside.add(n) })
    Y.visit(doc, {
      Alias: (_, alias) =>
        !inside.has(alias) && alias.source === anchored.anchor && alias.resolve(doc) === anchored
          ? copyOf(anchored)
          : undefined,
    })
  }
}
