import { errnoOf, isFsError, messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs'
import { parseMemoryHeaderFields } from './frontmatter.js'
import type { HeaderCache } from './header-cache.js'
import { listMemoryFilesSync } from './list-memory-files.js'
import {
  FRONTMATTER_MAX_LINES,
  type MemoryHeader,
  memoryFilePathJoiner,
  newestFirst,
} from './memory-header.js'
import { packHeaders, type PackedHeaders } from './packed-headers.js'
import { type FileHead, readHeadSync } from './read-head.js'
import { READ_NOW } from './regular-file.js'
import { decodeText } from './text-encoding.js'

// Blocking implementations of the scan. They run in the scan worker thread (scan-worker.ts);
// the main thread reaches them only through scan.ts.

function readHeaderAt(filename: string, filePath: string): MemoryHeader {
  const { content, mtimeMs, size } = readHeadSync(filePath, FRONTMATTER_MAX_LINES)
  return { filename, filePath, mtimeMs, size, ...parseMemoryHeaderFields(content) }
}

function tryReadHeader(filename: string, filePath: string): MemoryHeader | null {
  try {
    return readHeaderAt(filename, filePath)
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return null
  }
}

/** Which of `shards` scanners handles a file: by its name, so two listings taken a moment apart agree. */
export function shardOf(filename: string, shards: number): number {
  let h = 0x811c9dc5
  for (let i = 0; i < filename.length; i++) h = Math.imul(h ^ filename.charCodeAt(i), 0x01000193)
  return (h >>> 0) % shards
}

export interface Shard {
  index: number
  count: number
}

/** The header from the cache when the file is unchanged, else read (and cached). */
function cachedHeader(
  cache: HeaderCache,
  filename: string,
  filePath: string,
  stat: { mtimeMs: number; size: number },
): MemoryHeader | null {
  const known = cache.get(filename, stat.mtimeMs, stat.size)
  if (known) return { filename, filePath, mtimeMs: stat.mtimeMs, size: stat.size, ...known }
  const h = tryReadHeader(filename, filePath)
  if (h) cache.set(h as MemoryHeader & { size: number })
  return h
}

/**
 * SPEC §5 scan. Up to `limit` files: one pass, each file's header and mtime from one descriptor.
 * With more files than are kept, reading every header would be wasted work, so the mtimes come
 * from a stat pass and headers are read newest first until `limit` of them parse; the result is
 * the same list (an unreadable file is skipped and the next newest takes its place). With a
 * `shard`, only that share of the files is scanned; merging every shard's newest `limit` and
 * keeping the newest `limit` of those gives the unsharded result. With a header `cache` (a CLI
 * command or hook), every file is stat'ed and only those the cache does not know are read.
 */
export function scanMemoryFilesSync(
  memoryDir: string,
  limit: number,
  shard?: Shard,
  cache?: HeaderCache,
): MemoryHeader[] {
  const listed = cache ? cache.listing(memoryDir) : listMemoryFilesSync(memoryDir)
  const files = shard ? listed.filter((f) => shardOf(f, shard.count) === shard.index) : listed
  const pathOf = memoryFilePathJoiner(memoryDir)
  if (files.length <= limit && !cache) return readAllHeaders(files, pathOf)
  const stamped = stampFiles(files, pathOf).sort(newestFirst)
  const out: MemoryHeader[] = []
  for (let i = 0; i < stamped.length && out.length < limit; i++) {
    const s = stamped[i]!
    const h = cache ? cachedHeader(cache, s.filename, s.filePath, s) : tryReadHeader(s.filename, s.filePath)
    if (h) out.push(h)
  }
  // A file edited between its stat and its read carries the newer mtime.
  return out.sort(newestFirst)
}

/** Every file's header and mtime, one descriptor each (unreadable files left out), newest first. */
function readAllHeaders(files: readonly string[], pathOf: (f: string) => string): MemoryHeader[] {
  const out: MemoryHeader[] = []
  for (const f of files) {
    const h = tryReadHeader(f, pathOf(f))
    if (h) out.push(h)
  }
  return out.sort(newestFirst)
}

interface Stamped {
  filename: string
  filePath: string
  mtimeMs: number
  size: number
}

/** Each file's mtime and size; a file gone or unreadable is skipped, as a header read would skip it. */
function stampFiles(files: readonly string[], pathOf: (f: string) => string): Stamped[] {
  const stamped: Stamped[] = []
  for (const filename of files) {
    const filePath = pathOf(filename)
    try {
      const st = statSync(filePath, { throwIfNoEntry: false })
      if (st?.isFile()) stamped.push({ filename, filePath, mtimeMs: st.mtimeMs, size: st.size })
    } catch (e) {
      rethrowUnless(isFsError(e), e)
      // unreadable: skipped
    }
  }
  return stamped
}

/**
 * The first half of a sharded scan: when the whole dir holds no more than `limit` files, this
 * shard's headers (one pass, nothing to choose); otherwise only its files' stamps, so that the
 * newest `limit` are chosen across every shard before any header is read.
 */
export function headersOrStampsSync(
  memoryDir: string,
  limit: number,
  shard: Shard,
): { headers: PackedHeaders } | { stamped: [string, number, number][] } {
  const listed = listMemoryFilesSync(memoryDir)
  const files = listed.filter((f) => shardOf(f, shard.count) === shard.index)
  const pathOf = memoryFilePathJoiner(memoryDir)
  if (listed.length <= limit) return { headers: packHeaders(readAllHeaders(files, pathOf)) }
  return { stamped: stampFiles(files, pathOf).map((s) => [s.filename, s.mtimeMs, s.size]) }
}

export type TextFileResult =
  | { kind: 'text'; text: string }
  | { kind: 'too_large'; size: number }
  | { kind: 'not_file' }
  | { kind: 'error'; message: string }

/** Whole files as UTF-8, each checked against `maxBytes` on the descriptor it is read from. */
function readTextFileSync(path: string, maxBytes: number): TextFileResult {
  let fd: number | undefined
  try {
    fd = openSync(path, READ_NOW)
    const st = fstatSync(fd)
    if (!st.isFile()) return { kind: 'not_file' }
    if (st.size > maxBytes) return { kind: 'too_large', size: st.size }
    return { kind: 'text', text: decodeText(readFileSync(fd)) }
  } catch (e) {
    return { kind: 'error', message: messageOf(e) }
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

export type HeadResult = { ok: true; head: FileHead } | { ok: false; error: string; code?: string }

/** The jobs the scan worker runs, and what each returns. */
export type ScanJob =
  | { kind: 'list'; dir: string }
  | { kind: 'scan'; dir: string; limit: number; shard?: Shard }
  | { kind: 'headers-or-stamps'; dir: string; limit: number; shard: Shard }
  | { kind: 'headers'; dir: string; files: string[] }
  | { kind: 'heads'; paths: string[]; maxLines: number }
  | { kind: 'texts'; paths: string[]; maxBytes: number }

export type ScanJobResult<J extends ScanJob> = J extends { kind: 'list' }
  ? string[]
  : J extends { kind: 'headers-or-stamps' }
    ? ReturnType<typeof headersOrStampsSync>
    : J extends { kind: 'scan' | 'headers' }
      ? PackedHeaders
      : J extends { kind: 'texts' }
        ? TextFileResult[]
        : HeadResult[]

export function runScanJob<J extends ScanJob>(job: J): ScanJobResult<J> {
  switch (job.kind) {
    case 'list':
      return listMemoryFilesSync(job.dir) as ScanJobResult<J>
    case 'scan':
      return packHeaders(scanMemoryFilesSync(job.dir, job.limit, job.shard)) as ScanJobResult<J>
    case 'headers-or-stamps':
      return headersOrStampsSync(job.dir, job.limit, job.shard) as ScanJobResult<J>
    case 'headers': {
      const pathOf = memoryFilePathJoiner(job.dir)
      return packHeaders(job.files.map((f) => tryReadHeader(f, pathOf(f)))) as ScanJobResult<J>
    }
    case 'heads':
      return job.paths.map((p): HeadResult => {
        try {
          return { ok: true, head: readHeadSync(p, job.maxLines) }
        } catch (e) {
          return { ok: false, error: messageOf(e), code: errnoOf(e) }
        }
      }) as ScanJobResult<J>
    case 'texts':
      return job.paths.map((p) => readTextFileSync(p, job.maxBytes)) as ScanJobResult<J>
  }
  throw new Error(`unknown scan job: ${(job as { kind: string }).kind}`)
}
