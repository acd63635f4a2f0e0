import {
  FRONTMATTER_MAX_LINES,
  isMemoryFileName,
  MAX_MEMORY_FILES,
  type MemoryHeader,
  memoryFilePathJoiner,
  newestFirst,
} from './memory-header.js'
import { unpackHeaders } from './packed-headers.js'
import type { FileHead } from './read-head.js'
import type { HeaderCache } from './header-cache.js'
import { scanMemoryFilesSync, shardOf, type TextFileResult } from './scan-sync.js'
import { defaultScanner, type Scanner } from './scan-worker-client.js'

export type { Scanner, TextFileResult }
export { FRONTMATTER_MAX_LINES, isMemoryFileName, MAX_MEMORY_FILES, newestFirst, type MemoryHeader }

export interface ScanOptions {
  /** Where the reads run (the entry point's choice); default: defaultScanner(). */
  scanner?: Scanner
  signal?: AbortSignal
  /** Newest N kept; default 200. `Infinity` keeps all (the UI browser). */
  limit?: number
  /**
   * Headers kept between runs of a CLI command or hook: every file is stat'ed and only those whose
   * stamp changed are read. That scan runs on the calling thread whatever the scanner (it is a
   * stat pass; the app keeps its own watcher-fed index instead).
   */
  headerCache?: HeaderCache
}

async function scanWithCache(memoryDir: string, limit: number, cache: HeaderCache): Promise<MemoryHeader[]> {
  cache.readySync()
  const headers = scanMemoryFilesSync(memoryDir, limit, undefined, cache)
  await cache.save(headers)
  return headers
}

/** Every memory file under the dir (relative, with `/`); a missing dir has none. */
export function listMemoryFiles(memoryDir: string, scanner: Scanner = defaultScanner()): Promise<string[]> {
  return scanner.run({ kind: 'list', dir: memoryDir })
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work
  if (signal.aborted) return Promise.reject(new Error('scan aborted'))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('scan aborted'))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * SPEC §5: every `.md` but MEMORY.md, header from the first 30 lines, newest first, capped.
 * Unreadable files and bad frontmatter are skipped, never thrown. The reads run in the scan
 * worker threads, each taking a shard of the files (see scan-sync.ts for how).
 */
export function scanMemoryFiles(memoryDir: string, opts: ScanOptions = {}): Promise<MemoryHeader[]> {
  const limit = opts.limit ?? MAX_MEMORY_FILES
  if (opts.headerCache) return abortable(scanWithCache(memoryDir, limit, opts.headerCache), opts.signal)
  const scanner = opts.scanner ?? defaultScanner()
  const pathOf = memoryFilePathJoiner(memoryDir)
  return abortable(
    scanner.kind === 'threaded' && Number.isFinite(limit)
      ? shardedScan(memoryDir, limit, scanner)
      : scanner
          .runSharded((index, count) => ({
            kind: 'scan' as const,
            dir: memoryDir,
            limit,
            shard: count > 1 ? { index, count } : undefined,
          }))
          .then((packed) => {
            const parts = packed.map((p) => unpackHeaders(p, pathOf) as MemoryHeader[])
            return parts.length === 1 ? (parts[0] ?? []) : parts.flat().sort(newestFirst).slice(0, limit)
          }),
    opts.signal,
  )
}

/**
 * A scan split over the worker threads that reads no more headers than an unsplit one: each shard
 * stats its share, the newest `limit` are chosen across all shards, then each shard reads the
 * headers of its chosen files (a file that does not parse is replaced by the next newest).
 */
async function shardedScan(memoryDir: string, limit: number, scanner: Scanner): Promise<MemoryHeader[]> {
  const pathOf = memoryFilePathJoiner(memoryDir)
  const first = await scanner.runSharded((index, count) => ({
    kind: 'headers-or-stamps' as const,
    dir: memoryDir,
    limit,
    shard: { index, count },
  }))
  // A shard that saw no more than `limit` files in all read its headers at once. All shards
  // normally agree; when a file came or went between their listings, both answers merge.
  const read = new Map<string, MemoryHeader>()
  const stamped: { filename: string; mtimeMs: number; size?: number }[] = []
  for (const r of first) {
    if ('headers' in r)
      for (const h of unpackHeaders(r.headers, pathOf) as (MemoryHeader | null)[]) {
        if (!h) continue
        read.set(h.filename, h)
        stamped.push(h)
      }
    if ('stamped' in r)
      for (const [filename, mtimeMs, size] of r.stamped) stamped.push({ filename, mtimeMs, size })
  }
  if (stamped.length === read.size) return [...read.values()].sort(newestFirst)
  stamped.sort(newestFirst)
  const out: MemoryHeader[] = []
  let next = 0
  while (out.length < limit && next < stamped.length) {
    const batch = stamped.slice(next, next + limit - out.length).map((s) => s.filename)
    next += batch.length
    const unread = batch.filter((f) => !read.has(f))
    const fresh = unread.length
      ? await scanner.runSharded((index, count) => ({
          kind: 'headers' as const,
          dir: memoryDir,
          files: unread.filter((f) => shardOf(f, count) === index),
        }))
      : []
    for (const r of fresh)
      for (const h of unpackHeaders(r, pathOf)) if (h) read.set(h.filename, h as MemoryHeader)
    for (const f of batch) {
      const h = read.get(f)
      if (h) out.push(h)
    }
  }
  // A file edited between its stat and its read carries the newer mtime.
  return out.sort(newestFirst).slice(0, limit)
}

/** Headers of these files (paths relative to the dir), in order; a file that cannot be read is null. */
export async function readMemoryHeaders(
  memoryDir: string,
  files: string[],
  scanner: Scanner = defaultScanner(),
): Promise<(MemoryHeader | null)[]> {
  const packed = await scanner.run({ kind: 'headers', dir: memoryDir, files })
  return unpackHeaders(packed, memoryFilePathJoiner(memoryDir))
}

/** The first `maxLines` lines and mtime of each file, in order; undefined where it cannot be read. */
export async function readHeads(
  paths: string[],
  maxLines: number,
  scanner: Scanner = defaultScanner(),
): Promise<(FileHead | undefined)[]> {
  return (await readHeadsOrErrors(paths, maxLines, scanner)).map((r) => (r instanceof Error ? undefined : r))
}

/**
 * The first `maxLines` lines and mtime of each file, in order, in one batch (one round trip to the
 * scan threads); where a file cannot be read, the error (with its errno code) to throw or skip.
 */
export async function readHeadsOrErrors(
  paths: string[],
  maxLines: number,
  scanner: Scanner = defaultScanner(),
): Promise<(FileHead | (Error & { code?: string }))[]> {
  const got = await scanner.run({ kind: 'heads', paths, maxLines })
  return paths.map((path, i) => {
    const r = got[i]
    if (r?.ok) return r.head
    return Object.assign(new Error(r?.error ?? `cannot read ${path}`), { code: r?.code })
  })
}

const TEXT_JOB_FILES = 256

/** Whole files (UTF-8) up to `maxBytes` each, in order, read off the main thread (when threaded). */
export async function readTextFiles(
  paths: string[],
  maxBytes: number,
  scanner: Scanner = defaultScanner(),
): Promise<TextFileResult[]> {
  if (scanner.kind === 'inline' || paths.length <= TEXT_JOB_FILES)
    return scanner.run({ kind: 'texts', paths, maxBytes })
  // Many files go as jobs of TEXT_JOB_FILES, two in flight: both threads read, and another job (the
  // memory list at a workspace's opening, while the search index reads every memory) waits for
  // one slice instead of all 10,000 files.
  const out: TextFileResult[] = new Array<TextFileResult>(paths.length)
  let next = 0
  const lane = async () => {
    while (next < paths.length) {
      const start = next
      next += TEXT_JOB_FILES
      const got = await scanner.run({ kind: 'texts', paths: paths.slice(start, next), maxBytes })
      got.forEach((r, i) => (out[start + i] = r))
    }
  }
  await Promise.all([lane(), lane()])
  return out
}
