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
  // An alias elsewhere may still point into a line that goes (`name: &n one`, `name: two`, `title: *n`).
  copyIntoAliases(
    doc,
    named.slice(0, -1).flatMap((p) => (Y.isNode(p.value) ? [p.value] : [])),
  )
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
  for (let i = 1; i <= path.length; i++) {
    const at = path.slice(0, i)
    let node: unknown = doc.getIn(at, true)
    if (Y.isAlias(node)) {
      const target = node.resolve(doc)
      if (!target) return
      doc.setIn(at, (node = copyOf(target)))
    }
    if (Y.isNode(node)) copyIntoAliases(doc, [node])
  }
}

function copyOf(node: Node): Node {
  const copy = node.clone() as Node
  copy.anchor = undefined
  return copy
}

/**
 * Every alias outside `nodes` that points at one of them, or at a node inside one, becomes a copy
 * of what it points at as it is now (the anchors stay). One pass over the document for all of them.
 */
function copyIntoAliases(doc: Document, nodes: readonly Node[]): void {
  const Y = yamlLibrary()
  const inside = new Set<unknown>()
  const anchored = new Map<string, Node[]>()
  for (const node of nodes)
    Y.visit(node, {
      Node: (_, n) => {
        inside.add(n)
        if (n.anchor) (anchored.get(n.anchor) ?? anchored.set(n.anchor, []).get(n.anchor)!).push(n)
      },
    })
  if (!anchored.size) return
  Y.visit(doc, {
    Alias: (_, alias) => {
      if (inside.has(alias)) return undefined
      const target = anchored.get(alias.source)?.find((n) => alias.resolve(doc) === n)
      return target ? copyOf(target) : undefined
    },
  })
}
