import { join } from 'node:path'
import type { ProjectContext } from '../../core/paths/context.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { TermCache } from '../../core/recall/term-cache.js'
import { TermIndex } from '../../core/recall/term-index.js'
import { HeaderCache } from '../../core/store/header-cache.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import { MAX_MEMORY_FILES, scanMemoryFiles } from '../../core/store/scan.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { getAppDataDir } from '../settings/app-data.js'

/** `<data dir>/cache/<kind>/<memory dir>.<ext>`: disposable, rebuilt by the next run that needs it. */
const cacheFileFor = (ctx: ProjectContext, kind: 'headers' | 'recall', memoryDir: string, ext = 'json') =>
  join(getAppDataDir(ctx), 'cache', kind, `${sanitizePath(memoryDir)}.${ext}`)

/** A cache file is read blocking in a process that reads on its calling thread (nothing else waits). */
const blocking = (ctx: ProjectContext) => scannerFor(ctx).kind === 'inline'

/**
 * The offline ranker's terms for a memory dir in a process that ranks prompt after prompt (the
 * app, `memdir watch`): kept in memory with their postings (core/recall/term-cache.ts).
 */
export function termCacheFor(ctx: ProjectContext, memoryDir: string): TermCache {
  return new TermCache(cacheFileFor(ctx, 'recall', memoryDir), { blocking: blocking(ctx) })
}

/** The same for a CLI command or hook: a postings file it reads its query's terms from (core/recall/term-index.ts). */
export function termIndexFor(ctx: ProjectContext, memoryDir: string): TermIndex {
  return new TermIndex(cacheFileFor(ctx, 'recall', memoryDir, 'idx'))
}

/** The CLI's and hooks' memory headers for a memory dir (core/store/header-cache.ts). */
export function headerCacheFor(ctx: ProjectContext, memoryDir: string): HeaderCache {
  return new HeaderCache(cacheFileFor(ctx, 'headers', memoryDir), { blocking: blocking(ctx) })
}

/**
 * The newest `limit` headers (recall asks for all) through the dir's header cache: every file is
 * stat'ed on the calling thread and only those that changed are read. What `memdir recall`, the
 * prompt hook and MCP search rank from.
 */
export function headerCachedScan(
  ctx: ProjectContext,
  limit = MAX_MEMORY_FILES,
): (memoryDir: string) => Promise<MemoryHeader[]> {
  return (memoryDir) => scanMemoryFiles(memoryDir, { headerCache: headerCacheFor(ctx, memoryDir), limit })
}

/**
 * The scan a CLI command or hook runs: through the header cache when it reads on its own thread,
 * else a plain scan in the worker threads.
 */
export function cachedScan(
  ctx: ProjectContext,
  limit = MAX_MEMORY_FILES,
): (memoryDir: string) => Promise<MemoryHeader[]> {
  const scanner = scannerFor(ctx)
  if (scanner.kind === 'inline') return headerCachedScan(ctx, limit)
  return (memoryDir) => scanMemoryFiles(memoryDir, { scanner, limit })
}
