import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/** Every entry under a root: its kind, mode and content hash (a link: its target). */
export type TreeSnapshot = Map<string, string>

export function snapshotTree(root: string): TreeSnapshot {
  const out: TreeSnapshot = new Map()
  const walk = (dir: string) => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      return // the root itself may not exist yet
    }
    for (const name of names) {
      const path = join(dir, name)
      const st = lstatSync(path)
      const rel = relative(root, path).split(sep).join('/')
      if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(path)}`)
      else if (st.isDirectory()) {
        out.set(rel, `dir ${(st.mode & 0o7777).toString(8)}`)
        walk(path)
      } else
        out.set(
          rel,
          `file ${(st.mode & 0o7777).toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`,
        )
    }
  }
  walk(root)
  return out
}

/** Paths (relative to the snapshot root) added, removed or changed between two snapshots. */
export function changedPaths(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const out = new Set<string>()
  for (const [k, v] of after) if (before.get(k) !== v) out.add(k)
  for (const k of before.keys()) if (!after.has(k)) out.add(k)
  return [...out].sort()
}

/**
 * The paths that changed outside `allowed` (prefixes relative to the root, like
 * `.claude/projects/-x/memory` or `.memdir`): what an attack test expects to be empty.
 */
export function changesOutside(before: TreeSnapshot, after: TreeSnapshot, allowed: string[]): string[] {
  const inside = (p: string) =>
    allowed.some((a) => p === a || p.startsWith(a.endsWith('/') ? a : `${a}/`) || a.startsWith(`${p}/`))
  return changedPaths(before, after).filter((p) => !inside(p))
}
