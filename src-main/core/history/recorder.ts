import { orIfMissing } from '../../../src-shared/errors.js'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { readIfExists, sha256Hex } from '../store/atomic-write.js'
import { StampedCache } from '../store/stamped-cache.js'
import { walkFiles } from '../store/walk-files.js'
import type { HistoryAuthor, HistoryEntry, HistoryStore } from './history-store.js'

export async function allMarkdown(memoryDir: string): Promise<string[]> {
  const names = await orIfMissing(walkFiles(memoryDir), [] as string[])
  return names.filter((n) => n.endsWith('.md'))
}

const READ_SLICE = 64

/**
 * Compares files on disk with what history last saw and records each difference, attributed
 * to `author`. Without `paths`, the whole dir is compared (first open: baseline entries); a file
 * whose mtime and size are those it had when a whole-dir comparison last read it, and whose
 * content history still holds as its latest, is not read again (see observedCache).
 */
export async function reconcileHistory(
  store: HistoryStore,
  memoryDir: string,
  author: HistoryAuthor,
  opts: {
    paths?: Iterable<string>
    runId?: string
    /**
     * A file's mtime and size as something that stat'ed it just now knows them (the app's index,
     * scanned a moment before): a whole-dir comparison then stats only the files it does not know.
     */
    stampOf?: (path: string) => { mtimeMs: number; size: number } | undefined
    /** First-seen baselines fsync'ed in the background (HistoryStore.whenDurable). */
    deferSync?: boolean
  } = {},
): Promise<HistoryEntry[]> {
  // Every path history knows, with the hash it last saw (null: deleted).
  const latest = await store.latestHashes()
  const whole = !opts.paths
  const paths = opts.paths
    ? [...new Set(opts.paths)]
    : [...new Set([...(await allMarkdown(memoryDir)), ...latest.keys()])]
  const markdown = paths.filter((p) => p.endsWith('.md')).sort()
  const cache = whole ? observedCache(store) : undefined
  await cache?.ready()
  // Stat'ed before the read: a file changed in between is kept with its older stamp, so the next
  // comparison reads it again.
  const statted = new Map<string, { mtimeMs: number; size: number }>()
  const stamps = new Map<string, { mtimeMs: number; size: number; hash: string }>()
  const read = async (path: string): Promise<string | null> => {
    const content = await readIfExists(join(memoryDir, path))
    const st = statted.get(path)
    if (st && content !== null) stamps.set(path, { ...st, hash: sha256Hex(content) })
    return content
  }
  const look = async (path: string): Promise<{ path: string; content?: string | null } | undefined> => {
    const st = cache && (opts.stampOf?.(path) ?? (await orIfMissing(stat(join(memoryDir, path)), null)))
    if (st) statted.set(path, { mtimeMs: st.mtimeMs, size: st.size })
    const kept = st ? cache!.get(path, st.mtimeMs, st.size) : undefined
    if (kept !== undefined && latest.get(path) === kept) return undefined
    // A path history never saw is recorded whatever it holds: read once, under the lock (a first
    // opening of 10,000 memories read each twice).
    if (whole && !latest.has(path)) return { path }
    return { path, content: await read(path) }
  }
  // In slices: all 10,000 at once would hold as many file handles open.
  const observed: { path: string; content?: string | null }[] = []
  for (let i = 0; i < markdown.length; i += READ_SLICE)
    for (const o of await Promise.all(markdown.slice(i, i + READ_SLICE).map(look))) if (o) observed.push(o)
  const recorded = await store.recordObservedAll(observed, author, {
    runId: opts.runId,
    firstSeen: opts.paths ? 'create' : 'baseline',
    reread: read,
    deferSync: opts.deferSync,
  })
  if (cache) {
    const now = await store.latestHashes()
    for (const [path, s] of stamps) if (now.get(path) === s.hash) cache.set(path, s.mtimeMs, s.size, s.hash)
    await cache.save(markdown)
  }
  return recorded
}

/**
 * Each memory's content hash while its file keeps the mtime and size it had when read, kept
 * beside the history log: reopening a workspace of 10,000 memories read and hashed every file
 * (~1.3 s) to find the few changed while the app was closed. Disposable (StampedCache); a file
 * changed in the seconds before it was read is not kept (its stamp could hide a later edit).
 */
function observedCache(store: HistoryStore): StampedCache<string> {
  return new StampedCache<string>(
    join(store.dir, 'observed-stamps.json'),
    'observed-1',
    (v): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v),
  )
}
