import { readdir } from 'node:fs/promises'
import { basename, join, sep } from 'node:path'
import { ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import { parseMemoryFile } from './frontmatter.js'
import type { MemoryType } from './memory-types.js'
import { readHead } from './read-head.js'

export const MAX_MEMORY_FILES = 200
export const FRONTMATTER_MAX_LINES = 30
const READ_CONCURRENCY = 64

export interface MemoryHeader {
  /** Path relative to the scanned dir, always with `/`. */
  filename: string
  filePath: string
  mtimeMs: number
  name?: string
  description: string | null
  type?: MemoryType
}

export interface ScanOptions {
  signal?: AbortSignal
  /** Newest N kept; default 200. `Infinity` keeps all (the UI browser). */
  limit?: number
}

export function isMemoryFileName(relPath: string): boolean {
  return relPath.endsWith('.md') && basename(relPath) !== ENTRYPOINT_NAME
}

export async function listMemoryFiles(memoryDir: string): Promise<string[]> {
  let entries: string[]
  try {
    entries = await readdir(memoryDir, { recursive: true })
  } catch {
    return []
  }
  return entries.filter(isMemoryFileName).map((p) => p.split(sep).join('/'))
}

export async function readMemoryHeader(memoryDir: string, filename: string): Promise<MemoryHeader> {
  const filePath = join(memoryDir, filename)
  const { content, mtimeMs } = await readHead(filePath, FRONTMATTER_MAX_LINES)
  const parsed = parseMemoryFile(content)
  return {
    filename,
    filePath,
    mtimeMs,
    name: parsed.name,
    description: parsed.description,
    type: parsed.type,
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; failures become undefined. */
export async function mapSettledBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<(R | undefined)[]> {
  const out = new Array<R | undefined>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      if (signal?.aborted) return
      const i = next++
      try {
        out[i] = await fn(items[i] as T)
      } catch {
        out[i] = undefined
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

export function newestFirst(a: MemoryHeader, b: MemoryHeader): number {
  return b.mtimeMs - a.mtimeMs || a.filename.localeCompare(b.filename)
}

/**
 * SPEC §5: every `.md` but MEMORY.md, header from the first 30 lines, newest first, capped.
 * Unreadable files and bad frontmatter are skipped, never thrown.
 */
export async function scanMemoryFiles(memoryDir: string, opts: ScanOptions = {}): Promise<MemoryHeader[]> {
  const limit = opts.limit ?? MAX_MEMORY_FILES
  const files = await listMemoryFiles(memoryDir)
  const headers = await mapSettledBounded(
    files,
    READ_CONCURRENCY,
    (f) => readMemoryHeader(memoryDir, f),
    opts.signal,
  )
  if (opts.signal?.aborted) throw new Error('scan aborted')
  const ok = headers.filter((h): h is MemoryHeader => h !== undefined)
  ok.sort(newestFirst)
  return ok.slice(0, limit)
}
