import { EventEmitter } from 'node:events'
import { type Dirent, type FSWatcher, type Stats, watch } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { errnoOf } from '../../../src-shared/errors.js'

/** What `ignored` is told about an entry when it is known: its dirent or its stats. */
export type EntryKind = Pick<Stats, 'isFile' | 'isDirectory'>

export interface TreeWatchOptions {
  /** Only what changes from now on (default); false also reports the files already there as added. */
  ignoreInitial?: boolean
  /** Leaves a file or dir out: no events, not descended into. */
  ignored?: (path: string, kind?: EntryKind) => boolean
  /** Levels of subdirectories followed below the root (default: all; 0 = the root's own files). */
  depth?: number
  /** How long the OS's notifications are gathered before the entries they name are looked at. */
  settleMs?: number
}

export type TreeEvent = 'add' | 'change' | 'unlink'

/** The events a tree watcher emits, with absolute paths. `gone`: the root itself was removed. */
export interface TreeEvents {
  on(event: TreeEvent, listener: (path: string) => void): this
  on(event: 'error', listener: (error: unknown) => void): this
  on(event: 'gone', listener: () => void): this
}

const GONE = new Set(['ENOENT', 'ENOTDIR'])

/**
 * Follows a directory tree with one OS watch per directory (inotify, FSEvents or
 * ReadDirectoryChangesW each report their entries' changes), not one per file: chokidar's watch
 * per file took ~1.8 s, ~100 MB and 20,000 inotify watches for 20,000 memories, and on macOS
 * each is an open file descriptor. A notification names an entry; the entry is then stat'ed and
 * compared with what was known of it: a new file is `add`, one whose stamp moved `change`, one
 * that is gone `unlink` (with everything under a removed dir). Files found at start are not
 * stat'ed: their first notification is a `change`. Symlinked files and dirs are followed, a
 * symlinked dir once (its real path). A notification without a name re-reads its directory.
 */
export class TreeWatcher extends EventEmitter implements TreeEvents {
  private readonly dirs = new Map<string, { watcher: FSWatcher; depth: number; real: string }>()
  /** The real paths of the watched dirs (a lookup per new dir, not a pass over all of them). */
  private readonly reals = new Set<string>()
  readonly root: string
  /** Every file followed, with its last stamp (undefined until first stat'ed). */
  private readonly files = new Map<string, string | undefined>()
  private pending = new Map<string, Set<string> | 'all'>()
  private timer?: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()
  private closed = false

  constructor(
    root: string,
    private readonly opts: TreeWatchOptions = {},
  ) {
    super()
    this.root = resolve(root) // no trailing separator: entries' dirname() is their dir's key
  }

  /** Watches the tree; resolves once every directory is watched (and, unless ignoreInitial, its files reported). */
  async start(reportExisting = !this.opts.ignoreInitial): Promise<void> {
    await this.addDir(this.root, 0, reportExisting)
  }

  /** Files currently followed (absolute paths). */
  watched(): string[] {
    return [...this.files.keys()]
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    for (const { watcher } of this.dirs.values()) watcher.close()
    this.dirs.clear()
    this.reals.clear()
    await this.flushing
  }

  private fail(e: unknown) {
    if (this.listenerCount('error')) this.emit('error', e)
  }

  private async addDir(dir: string, depth: number, report: boolean): Promise<void> {
    if (this.closed || this.dirs.has(dir)) return
    const real = await realpath(dir).catch(() => dir)
    // Again after the await: the walk and a notification may both reach a new dir, or close() ran.
    // A real path already watched is a symlink loop, or a dir reached twice.
    if (this.closed || this.dirs.has(dir) || this.reals.has(real)) return
    let watcher: FSWatcher
    try {
      // Watched before it is read, so nothing created in between is missed.
      watcher = watch(dir, { persistent: true }, (_event, name) => this.notified(dir, name))
    } catch (e) {
      if (GONE.has(errnoOf(e) ?? '')) return
      return this.fail(e)
    }
    // A watch that fails (Windows: its dir was deleted) has the dir looked at again.
    watcher.on('error', () => this.notified(dir, null))
    this.dirs.set(dir, { watcher, depth, real })
    this.reals.add(real)
    let entries: Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (e) {
      if (!GONE.has(errnoOf(e) ?? '')) this.fail(e)
      return this.removeDir(dir)
    }
    for (const entry of entries) await this.addEntry(join(dir, entry.name), depth, report, entry)
  }

  /**
   * A dir or file seen in a listing (its dirent) or named by a notification (its stats): stat'ed
   * here when only a symlink's dirent is known.
   */
  private async addEntry(path: string, depth: number, report: boolean, seen: Dirent | Stats): Promise<void> {
    let kind: EntryKind | undefined = seen.isSymbolicLink() ? undefined : seen
    let stamp: string | undefined
    if (!kind) {
      const st = await this.statOf(path)
      if (!st) return
      kind = st
      stamp = stampOf(st)
    }
    if (this.opts.ignored?.(path, kind)) return
    if (kind.isDirectory()) {
      if (depth + 1 <= (this.opts.depth ?? Infinity)) await this.addDir(path, depth + 1, report)
    } else if (kind.isFile() && !this.files.has(path)) {
      this.files.set(path, stamp)
      if (report) this.emit('add', path)
    }
  }

  private async statOf(path: string): Promise<Stats | undefined> {
    try {
      return await stat(path)
    } catch (e) {
      if (!GONE.has(errnoOf(e) ?? '') && errnoOf(e) !== 'ELOOP') this.fail(e)
      return undefined
    }
  }

  private notified(dir: string, name: string | Buffer | null) {
    if (this.closed) return
    const names = this.pending.get(dir)
    if (name === null || names === 'all') this.pending.set(dir, 'all')
    else (names ?? (this.pending.set(dir, new Set()).get(dir) as Set<string>)).add(String(name))
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.flushing = this.flushing.then(() => this.flush()).catch((e: unknown) => this.fail(e))
    }, this.opts.settleMs ?? 20)
  }

  private async flush(): Promise<void> {
    const batch = this.pending
    this.pending = new Map()
    for (const [dir, names] of batch) {
      const watched = this.dirs.get(dir)
      if (this.closed || !watched) continue
      // The dir itself may be what went away (its own watch says so with its own name).
      if (!(await this.statOf(dir))?.isDirectory()) {
        this.removeDir(dir)
        continue
      }
      if (names === 'all') await this.reread(dir, watched.depth)
      else for (const name of names) await this.look(join(dir, name), watched.depth)
    }
  }

  /** An entry a notification named: added, changed, gone, or nothing that matters. */
  private async look(path: string, depth: number): Promise<void> {
    if (this.closed) return
    const st = await this.statOf(path)
    if (!st || (!st.isDirectory() && this.dirs.has(path))) this.removeDir(path)
    if (!st || (!st.isFile() && this.files.has(path))) this.removeFile(path)
    if (!st) return
    if (st.isDirectory()) {
      if (!this.dirs.has(path)) await this.addEntry(path, depth, true, st)
      return
    }
    if (!st.isFile() || this.opts.ignored?.(path, st)) return
    const stamp = stampOf(st)
    const known = this.files.has(path)
    const before = this.files.get(path)
    this.files.set(path, stamp)
    if (!known) this.emit('add', path)
    else if (before !== stamp) this.emit('change', path)
  }

  /** A notification without a name: the dir's listing against what was known of it. */
  private async reread(dir: string, depth: number): Promise<void> {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (e) {
      if (!GONE.has(errnoOf(e) ?? '')) this.fail(e)
      return this.removeDir(dir)
    }
    const present = new Set(names.map((n) => join(dir, n)))
    for (const path of [...this.files.keys()])
      if (dirname(path) === dir && !present.has(path)) this.removeFile(path)
    for (const path of [...this.dirs.keys()])
      if (dirname(path) === dir && !present.has(path)) this.removeDir(path)
    for (const path of present) await this.look(path, depth)
  }

  private removeFile(path: string) {
    if (this.files.delete(path)) this.emit('unlink', path)
  }

  /** A dir that went away: its watch closed and every file under it unlinked. */
  private removeDir(dir: string) {
    const watched = this.dirs.get(dir)
    if (!watched) return
    watched.watcher.close()
    this.dirs.delete(dir)
    this.reals.delete(watched.real)
    const under = dir + sep
    for (const path of [...this.dirs.keys()]) if (path.startsWith(under)) this.removeDir(path)
    for (const path of [...this.files.keys()]) if (path.startsWith(under)) this.removeFile(path)
    if (dir === this.root) this.emit('gone')
  }
}

function stampOf(st: Stats): string {
  return `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}`
}
