import { nameFoldKey } from './memory-names.js'

/**
 * Keys that cannot live side by side on every file system a teammate may sync to: two spellings of
 * one file or one folder on APFS and NTFS (`Deploy.md` and `deploy.md`, `Ops/a.md` and
 * `ops/b.md`, a case or NFD twin), or a file and a folder of one name (`a.md` and `a.md/b.md`,
 * which no file system holds). The team server refuses the second key; the team client does not
 * push it.
 */

/** Each path a key occupies: its folders, then the file itself. */
function pathsOf(key: string): { path: string; kind: 'folder' | 'file' }[] {
  const segs = key.split('/')
  return segs.map((_, i) => ({
    path: segs.slice(0, i + 1).join('/'),
    kind: i === segs.length - 1 ? 'file' : 'folder',
  }))
}

export interface KeyTwin {
  /** The key that cannot join. */
  key: string
  /** The key already there that it clashes with. */
  existing: string
  /** What the two are: spellings of one file or folder, or a file and a folder of one name. */
  why: string
}

/** Tracks the paths of keys held so far, answering which new key clashes with one of them. */
export class KeyTwins {
  private readonly held = new Map<string, { path: string; kind: 'folder' | 'file'; key: string }>()

  constructor(existing: Iterable<string> = []) {
    for (const k of existing) this.add(k)
  }

  /** The clash `key` would make with a key held, or undefined when it fits. */
  twinOf(key: string): KeyTwin | undefined {
    for (const p of pathsOf(key)) {
      const other = this.held.get(nameFoldKey(p.path))
      if (!other || other.key === key) continue
      if (other.kind !== p.kind)
        return {
          key,
          existing: other.key,
          why: `${other.path} is a ${other.kind} there, and ${key} needs a ${p.kind} of that name`,
        }
      if (other.path !== p.path)
        return {
          key,
          existing: other.key,
          why: `${p.path} and ${other.path} would be one ${p.kind} on macOS and Windows`,
        }
    }
    return undefined
  }

  add(key: string): void {
    for (const p of pathsOf(key)) {
      const folded = nameFoldKey(p.path)
      if (!this.held.has(folded)) this.held.set(folded, { ...p, key })
    }
  }
}

/**
 * The first incoming key that clashes with an existing one or an earlier incoming one. A key
 * already held is an update and always fits (an older server may have let a twin in).
 */
export function findKeyTwin(existing: Iterable<string>, incoming: readonly string[]): KeyTwin | undefined {
  const held = new Set(existing)
  const twins = new KeyTwins(held)
  for (const k of incoming) {
    const twin = held.has(k) ? undefined : twins.twinOf(k)
    if (twin) return twin
    twins.add(k)
  }
  return undefined
}
