import { appendFile, mkdir, readFile, readdir, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { sha256Hex, writeFileAtomic } from '../store/atomic-write.js'

export type HistoryAuthor = 'user' | 'extraction' | 'dream' | 'team-pull' | 'external'
export type HistoryChange = 'baseline' | 'create' | 'modify' | 'delete' | 'restore'

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
}

export interface RetentionPolicy {
  /** Versions kept per file (the newest). */
  maxVersionsPerFile: number
  /** Entries older than this are dropped unless they are a file's latest. */
  maxAgeMs: number
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxVersionsPerFile: 100, maxAgeMs: 180 * 86_400_000 }

/**
 * History of one memory dir, kept outside it (app data): content-addressed blobs plus an
 * append-only JSONL log. A torn last line (crash mid-append) is ignored on load.
 */
export class HistoryStore {
  private entries: HistoryEntry[] = []
  private latest = new Map<string, string | null>()
  private loaded?: Promise<void>
  private nextId = 1

  constructor(
    readonly dir: string,
    private readonly retention: RetentionPolicy = DEFAULT_RETENTION,
  ) {}

  private get logPath() {
    return join(this.dir, 'log.jsonl')
  }

  load(): Promise<void> {
    this.loaded ??= (async () => {
      await mkdir(join(this.dir, 'objects'), { recursive: true })
      const text = await readFile(this.logPath, 'utf8').catch(() => '')
      for (const line of text.split('\n')) {
        if (!line.trim()) continue
        try {
          this.index(JSON.parse(line) as HistoryEntry)
        } catch {
          // torn or foreign line: skip
        }
      }
    })()
    return this.loaded
  }

  private index(e: HistoryEntry) {
    this.entries.push(e)
    this.latest.set(e.path, e.after)
    this.nextId = Math.max(this.nextId, e.id + 1)
  }

  async putBlob(content: string): Promise<string> {
    const hash = sha256Hex(content)
    const path = join(this.dir, 'objects', hash)
    if (!(await stat(path).catch(() => null))) await writeFileAtomic(path, content)
    return hash
  }

  async blob(hash: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`invalid blob id ${hash}`)
    return readFile(join(this.dir, 'objects', hash), 'utf8')
  }

  /** The hash history last saw for a path (undefined: never seen; null: deleted). */
  async latestHash(path: string): Promise<string | null | undefined> {
    await this.load()
    return this.latest.has(path) ? (this.latest.get(path) as string | null) : undefined
  }

  async record(e: Omit<HistoryEntry, 'id' | 'at'> & { at?: number }): Promise<HistoryEntry> {
    await this.load()
    const entry: HistoryEntry = { id: this.nextId++, at: e.at ?? Date.now(), ...e }
    await appendFile(this.logPath, JSON.stringify(entry) + '\n')
    this.index(entry)
    return entry
  }

  async list(filter: { path?: string; runId?: string } = {}): Promise<HistoryEntry[]> {
    await this.load()
    return this.entries.filter(
      (e) => (!filter.path || e.path === filter.path) && (!filter.runId || e.runId === filter.runId),
    )
  }

  async get(id: number): Promise<HistoryEntry | undefined> {
    await this.load()
    return this.entries.find((e) => e.id === id)
  }

  /** Applies the retention policy, rewrites the log atomically and drops unreferenced blobs. */
  async prune(now = Date.now()): Promise<{ removedEntries: number; removedBlobs: number }> {
    await this.load()
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
      this.entries = kept
    }
    const referenced = new Set(
      kept.flatMap((e) => [e.before, e.after]).filter((h): h is string => h !== null),
    )
    let removedBlobs = 0
    for (const name of await readdir(join(this.dir, 'objects'))) {
      if (!referenced.has(name)) {
        await unlink(join(this.dir, 'objects', name)).catch(() => {})
        removedBlobs++
      }
    }
    return { removedEntries, removedBlobs }
  }
}
