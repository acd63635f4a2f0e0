import { ignoreFsError, messageOf, orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { readAppendedBytes } from '../store/appended-lines.js'
import { appendFile, mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import lockfile from 'proper-lockfile'
import { sha256Hex, writeFileAtomic } from '../store/atomic-write.js'
import { verifiedTimesOf } from './verified-times.js'
import { SerialQueue } from '../store/serial-queue.js'

export type HistoryAuthor = 'user' | 'extraction' | 'dream' | 'team-pull' | 'external' | 'mcp'
/** `verify`: the user marked the memory as still true (content unchanged; restarts its staleness clock). */
export type HistoryChange = 'baseline' | 'create' | 'modify' | 'delete' | 'restore' | 'verify'

/** One recorded change of one file. `before`/`after` are blob hashes (null: no file). */
export interface HistoryEntry {
  id: number
  at: number
  path: string
  author: HistoryAuthor
  change: HistoryChange
  /** Groups the changes of one extraction, dream or pull so they can be undone together. */
  runId?: string
  before: string | null
  after: string | null
  /** A restore: the version it brought back. */
  restoredFrom?: number
  /** Who exactly, when the author is a client (the MCP client's name). */
  client?: string
}

export interface RetentionPolicy {
  /** Versions kept per file (the newest). */
  maxVersionsPerFile: number
  /** Entries older than this are dropped unless they are a file's latest. */
  maxAgeMs: number
}

const BLOB_GRACE_MS = 10 * 60_000
/** Blobs written (and fsync'ed) at once when many files are recorded together. */
const BLOB_SLICE = 32

export const DEFAULT_RETENTION: RetentionPolicy = { maxVersionsPerFile: 100, maxAgeMs: 180 * 86_400_000 }

export interface ChangeToRecord {
  path: string
  author: HistoryAuthor
  runId?: string
  /** Content before and after the change (null: no file). */
  before: string | null
  after: string | null
  change?: HistoryChange
  restoredFrom?: number
  client?: string
  at?: number
}

/**
 * History of one memory dir, kept outside it (app data): content-addressed blobs plus an
 * append-only JSONL log, shared by every process that works on the dir (the app, the CLI, hooks,
 * MCP). Appends and pruning hold a lock file and re-read what other processes appended first, so
 * ids never collide and a prune never drops another process's entry. A torn last line (a crash
 * mid-append) is left unread until it is completed, and skipped when it never is.
 */
export class HistoryStore {
  private entries: HistoryEntry[] = []
  private latest = new Map<string, string | null>()
  private nextId = 1
  /** How far the log has been read (bytes), and which file that was (a prune writes a new one). */
  private offset = 0
  private ino = -1
  /** The log's last bytes as read: a file replaced under the same inode number is read again. */
  private tail: Buffer = Buffer.alloc(0)
  /** Blobs written without fsync being made durable in the background (see recordObservedAll). */
  private syncing: Promise<void> = Promise.resolve()
  private objectsMade?: Promise<unknown>
  /** This store's reads and appends of the log, one after another (see refresh). */
  private readonly queue = new SerialQueue()

  constructor(
    readonly dir: string,
    private readonly retention: RetentionPolicy = DEFAULT_RETENTION,
  ) {}

  private get logPath() {
    return join(this.dir, 'log.jsonl')
  }

  /**
   * Catches up with the log as other processes (or this one) left it. One read at a time: two
   * reads from the same offset, or a read beside an append of this process, indexed the same
   * entries twice (the UI polling history while the watcher recorded showed each change twice).
   */
  private refresh(): Promise<void> {
    return this.queue.run(() => this.readAppended())
  }

  private async readAppended(): Promise<void> {
    await mkdir(join(this.dir, 'objects'), { recursive: true })
    const got = await readAppendedBytes(this.logPath, { offset: this.offset, ino: this.ino, tail: this.tail })
    if (!got) {
      if (this.ino !== -1 || this.offset) this.reset()
      return
    }
    if (got.restarted) this.reset()
    this.ino = got.ino
    this.tail = got.tail
    for (const line of got.bytes.toString('utf8').split('\n')) {
      if (!line.trim()) continue
      try {
        this.index(JSON.parse(line) as HistoryEntry)
      } catch (e) {
        rethrowUnless(e instanceof SyntaxError, e)
        // torn or foreign line: skip
      }
    }
    this.offset = got.end
  }

  private reset() {
    this.entries = []
    this.latest = new Map()
    this.nextId = 1
    this.offset = 0
    this.ino = -1
    this.tail = Buffer.alloc(0)
  }

  private index(e: HistoryEntry) {
    this.entries.push(e)
    this.latest.set(e.path, e.after)
    this.nextId = Math.max(this.nextId, e.id + 1)
  }

  /** Runs `fn` holding the log's lock, after catching up with the log. */
  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    await mkdir(join(this.dir, 'objects'), { recursive: true })
    const release = await lockfile.lock(this.dir, {
      lockfilePath: join(this.dir, 'log.lock'),
      realpath: false,
      stale: 10_000,
      retries: { retries: 200, minTimeout: 5, maxTimeout: 100, factor: 1.3 },
    })
    try {
      await this.refresh()
      return await fn()
    } finally {
      await release()
    }
  }

  load(): Promise<void> {
    return this.refresh()
  }

  async putBlob(content: string, opts: { durable?: boolean } = {}): Promise<string> {
    const hash = sha256Hex(content)
    const path = join(this.dir, 'objects', hash)
    // Made once per store (10,000 blobs asked for it 10,000 times); a failure is tried again.
    await (this.objectsMade ??= mkdir(join(this.dir, 'objects'), { recursive: true }).catch((e: unknown) => {
      this.objectsMade = undefined
      throw e
    }))
    if (!(await orIfMissing(stat(path), null))) await writeFileAtomic(path, content, opts)
    return hash
  }

  /** A version's content; one that no longer hashes to its id (a crash cut it short) is refused. */
  async blob(hash: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`invalid blob id ${hash}`)
    const text = await readFile(join(this.dir, 'objects', hash), 'utf8')
    if (sha256Hex(text) !== hash)
      throw new Error(
        `history's copy of version ${hash.slice(0, 12)} is damaged: its content no longer matches it`,
      )
    return text
  }

  /** Resolves once every blob written without fsync (a whole-dir baseline) has been fsync'ed. */
  whenDurable(): Promise<void> {
    return this.syncing
  }

  private syncLater(hashes: string[]) {
    if (!hashes.length) return
    const paths = hashes.map((h) => join(this.dir, 'objects', h))
    // Not fatal: the copies are written, only not yet forced to the disk (the OS writes them back).
    this.syncing = this.syncing
      .then(() => fsyncAll(paths))
      .catch((e: unknown) => process.emitWarning(`memdir: history copies not fsync'ed (${messageOf(e)})`))
  }

  /** The hash history last saw for every path it knows (null: deleted). */
  async latestHashes(): Promise<ReadonlyMap<string, string | null>> {
    await this.refresh()
    return this.latest
  }

  /** The hash history last saw for a path (undefined: never seen; null: deleted). */
  async latestHash(path: string): Promise<string | null | undefined> {
    await this.refresh()
    return this.latest.has(path) ? (this.latest.get(path) as string | null) : undefined
  }

  private async append(e: Omit<HistoryEntry, 'id' | 'at'> & { at?: number }): Promise<HistoryEntry> {
    return (await this.appendAll([e]))[0]!
  }

  /** Several entries in one write (one lock held by the caller). */
  private async appendAll(
    es: (Omit<HistoryEntry, 'id' | 'at'> & { at?: number })[],
  ): Promise<HistoryEntry[]> {
    if (!es.length) return []
    const at = Date.now()
    const entries = es.map((e, i): HistoryEntry => ({ id: this.nextId + i, at: e.at ?? at, ...e }))
    const bytes = Buffer.from(entries.map((e) => JSON.stringify(e) + '\n').join(''))
    // Read back like any other process's lines: a concurrent reader never indexes them twice.
    await this.queue.run(async () => {
      await appendFile(this.logPath, bytes)
      await this.readAppended()
    })
    return entries
  }

  /** Appends one entry as given (tests, imports); prefer recordChange. */
  async record(e: Omit<HistoryEntry, 'id' | 'at'> & { at?: number }): Promise<HistoryEntry> {
    return this.locked(() => this.append(e))
  }

  /**
   * Records a change with its exact before/after, atomically with respect to other processes:
   * a first sighting of a file that already existed gets a baseline entry first; a change history
   * already has (the after content is the latest) records nothing.
   */
  async recordChange(c: ChangeToRecord): Promise<HistoryEntry | undefined> {
    const beforeHash = c.before === null ? null : await this.putBlob(c.before)
    const afterHash = c.after === null ? null : await this.putBlob(c.after)
    return this.locked(async () => {
      const last = this.latest.has(c.path) ? this.latest.get(c.path)! : undefined
      if (last === undefined && beforeHash !== null)
        await this.append({
          path: c.path,
          author: 'external',
          change: 'baseline',
          before: null,
          after: beforeHash,
        })
      // A version nobody recorded (written while nothing watched) is kept before it is replaced.
      else if (last !== undefined && last !== beforeHash)
        await this.append({
          path: c.path,
          author: 'external',
          change: beforeHash === null ? 'delete' : last === null ? 'create' : 'modify',
          before: last,
          after: beforeHash,
        })
      const now = this.latest.has(c.path) ? this.latest.get(c.path)! : undefined
      if (afterHash === (now ?? null)) return undefined
      const change =
        c.change ?? (afterHash === null ? 'delete' : (now ?? null) === null ? 'create' : 'modify')
      return this.append({
        path: c.path,
        author: c.author,
        change,
        runId: c.runId,
        before: now ?? null,
        after: afterHash,
        ...(c.restoredFrom !== undefined ? { restoredFrom: c.restoredFrom } : {}),
        ...(c.client ? { client: c.client } : {}),
        ...(c.at !== undefined ? { at: c.at } : {}),
      })
    })
  }

  /** The user says this version is still true: an entry with the same content before and after. */
  async recordVerified(path: string, content: string): Promise<HistoryEntry> {
    const hash = await this.putBlob(content)
    return this.locked(async () => {
      const last = this.latest.has(path) ? this.latest.get(path)! : undefined
      if (last === undefined)
        await this.append({ path, author: 'external', change: 'baseline', before: null, after: hash })
      else if (last !== hash)
        await this.append({
          path,
          author: 'external',
          change: last === null ? 'create' : 'modify',
          before: last,
          after: hash,
        })
      return this.append({ path, author: 'user', change: 'verify', before: hash, after: hash })
    })
  }

  /** When each path was last marked as still true. */
  async verifiedTimes(): Promise<Map<string, number>> {
    await this.refresh()
    return verifiedTimesOf(this.entries)
  }

  /**
   * Records what is on disk for these paths where history has not seen it: a file seen for the first
   * time is a baseline (`firstSeen`), otherwise a change by `author`. Files whose content history
   * already has cost a hash and nothing else; the rest are read again under the lock (`reread`: a
   * writer may have changed and recorded one since it was observed, and a stale observation must
   * not be recorded as a change) and recorded in one append. Opening 10,000 unchanged memories took
   * a lock per file before (seconds).
   */
  async recordObservedAll(
    /** `content` undefined: not read yet, `reread` reads it (a path history never saw is a candidate anyway). */
    observed: readonly { path: string; content?: string | null }[],
    author: HistoryAuthor,
    opts: {
      runId?: string
      firstSeen?: 'baseline' | 'create'
      reread?: (path: string) => Promise<string | null>
      /**
       * First-seen baselines are written without fsync and made durable in the background
       * (whenDurable): each is a copy of a file that is on disk as it is, and fsync'ing 10,000 of
       * them one slice at a time held a workspace's first opening for ~6 s.
       */
      deferSync?: boolean
    } = {},
  ): Promise<HistoryEntry[]> {
    await this.refresh()
    const hashOf = (content: string | null) => (content === null ? null : sha256Hex(content))
    const unseen = (path: string, hash: string | null) => {
      const last = this.latest.has(path) ? this.latest.get(path)! : undefined
      return last === hash || (last === undefined && hash === null) ? undefined : { last }
    }
    if (!opts.reread && observed.some((o) => o.content === undefined))
      throw new Error('recordObservedAll: a path without content needs reread')
    const candidates = observed.filter((o) => o.content === undefined || unseen(o.path, hashOf(o.content)))
    if (!candidates.length) return []
    return this.locked(async () => {
      const entries: (Omit<HistoryEntry, 'id' | 'at'> & { at?: number })[] = []
      // A slice at a time: one blob after another (each fsync'ed), a first opening of 10,000
      // memories waited ~11 s on them; in slices the file system commits them together.
      for (let i = 0; i < candidates.length; i += BLOB_SLICE) {
        const slice = candidates.slice(i, i + BLOB_SLICE)
        const done = await Promise.all(
          slice.map(async (o) => {
            const content = opts.reread ? await opts.reread(o.path) : (o.content as string | null)
            const hash = hashOf(content)
            // Against the log as it is now: another process may have recorded it since.
            const differs = unseen(o.path, hash)
            if (!differs) return undefined
            const { last } = differs
            const change: HistoryChange =
              last === undefined
                ? (opts.firstSeen ?? 'baseline')
                : hash === null
                  ? 'delete'
                  : last === null
                    ? 'create'
                    : 'modify'
            if (content !== null)
              await this.putBlob(content, { durable: !(opts.deferSync && change === 'baseline') })
            return {
              path: o.path,
              author: change === 'baseline' ? ('external' as const) : author,
              change,
              runId: opts.runId,
              before: last ?? null,
              after: hash,
            }
          }),
        )
        for (const e of done) if (e) entries.push(e)
      }
      const appended = await this.appendAll(entries)
      if (opts.deferSync)
        this.syncLater(entries.filter((e) => e.change === 'baseline' && e.after).map((e) => e.after!))
      return appended
    })
  }

  async list(filter: { path?: string; runId?: string } = {}): Promise<HistoryEntry[]> {
    await this.refresh()
    return this.entries.filter(
      (e) => (!filter.path || e.path === filter.path) && (!filter.runId || e.runId === filter.runId),
    )
  }

  async get(id: number): Promise<HistoryEntry | undefined> {
    await this.refresh()
    return this.entries.find((e) => e.id === id)
  }

  /** Applies the retention policy to the whole log (as all processes left it), rewriting it atomically. */
  async prune(now = Date.now()): Promise<{ removedEntries: number; removedBlobs: number }> {
    return this.locked(async () => {
      const byPath = new Map<string, HistoryEntry[]>()
      for (const e of this.entries) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e])
      const keep = new Set<number>()
      for (const list of byPath.values()) {
        const newest = list.slice(-this.retention.maxVersionsPerFile)
        newest.forEach((e, i) => {
          if (i === newest.length - 1 || now - e.at <= this.retention.maxAgeMs) keep.add(e.id)
        })
      }
      const kept = this.entries.filter((e) => keep.has(e.id))
      const removedEntries = this.entries.length - kept.length
      if (removedEntries) {
        await writeFileAtomic(
          this.logPath,
          kept.map((e) => JSON.stringify(e)).join('\n') + (kept.length ? '\n' : ''),
        )
        // The next read picks the new file up from the start.
        await this.queue.run(async () => {
          this.reset()
          await this.readAppended()
        })
      }
      const referenced = new Set(
        kept.flatMap((e) => [e.before, e.after]).filter((h): h is string => h !== null),
      )
      let removedBlobs = 0
      for (const name of await readdir(join(this.dir, 'objects'))) {
        if (!/^[0-9a-f]{64}$/.test(name) || referenced.has(name)) continue
        // Another process may have stored this blob a moment ago for an entry it is about to append.
        const st = await orIfMissing(stat(join(this.dir, 'objects', name)), null)
        if (!st || now - st.mtimeMs < BLOB_GRACE_MS) continue
        await unlink(join(this.dir, 'objects', name)).catch(ignoreFsError)
        removedBlobs++
      }
      return { removedEntries, removedBlobs }
    })
  }
}

/** fsyncs files already written (32 at a time); one that is gone (pruned meanwhile) is skipped. */
async function fsyncAll(paths: string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += BLOB_SLICE)
    await Promise.all(
      paths.slice(i, i + BLOB_SLICE).map(async (path) => {
        // Read-write: Windows flushes only a handle that may write.
        const fh = await open(path, 'r+').catch(ignoreFsError)
        if (!fh) return
        try {
          await fh.sync()
        } finally {
          await fh.close()
        }
      }),
    )
}
