import { join, sep } from 'node:path'
import { ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import type { MemoryFormat } from './frontmatter.js'
import type { MemoryType } from './memory-types.js'

export const MAX_MEMORY_FILES = 200
export const FRONTMATTER_MAX_LINES = 30

export interface MemoryHeader {
  /** Path relative to the scanned dir, always with `/`. */
  filename: string
  filePath: string
  mtimeMs: number
  /** Bytes, when the scan read the file (with mtimeMs, what a cache of it is keyed by). */
  size?: number
  name?: string
  description: string | null
  type?: MemoryType
  /** Where the file keeps its type (`type:` or `metadata.type`), when it has one. */
  format?: MemoryFormat
}

/** A `.md` file but the index (no basename() call: a scan asks this 20,000 times). */
export function isMemoryFileName(relPath: string): boolean {
  if (!relPath.endsWith('.md')) return false
  const start = relPath.length - ENTRYPOINT_NAME.length
  if (start < 0 || !relPath.endsWith(ENTRYPOINT_NAME)) return true
  return start > 0 && relPath[start - 1] !== '/' && relPath[start - 1] !== '\\'
}

export function newestFirst(
  a: { mtimeMs: number; filename: string },
  b: { mtimeMs: number; filename: string },
) {
  return b.mtimeMs - a.mtimeMs || a.filename.localeCompare(b.filename)
}

/** `join(memoryDir, filename)` for many files: the dir is normalized once, not per file. */
export function memoryFilePathJoiner(memoryDir: string): (filename: string) => string {
  const root = join(memoryDir, sep)
  return sep === '/' ? (f) => root + f : (f) => join(root, f)
}
