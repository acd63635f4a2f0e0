import { join } from 'node:path'
import type { ProjectContext } from '../../core/paths/context.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { TermCache } from '../../core/recall/term-cache.js'
import { HeaderCache } from '../../core/store/header-cache.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import { scanMemoryFiles } from '../../core/store/scan.js'
import { getAppDataDir } from '../settings/app-data.js'

/** `<data dir>/cache/<kind>/<memory dir>.json`: disposable, rebuilt by the next run that needs it. */
const cacheFileFor = (ctx: ProjectContext, kind: 'headers' | 'recall', memoryDir: string) =>
  join(getAppDataDir(ctx), 'cache', kind, `${sanitizePath(memoryDir)}.json`)

/** The offline ranker's terms for a memory dir (core/recall/term-cache.ts). */
export function termCacheFor(ctx: ProjectContext, memoryDir: string): TermCache {
  return new TermCache(cacheFileFor(ctx, 'recall', memoryDir))
}

/** The CLI's and hooks' memory headers for a memory dir (core/store/header-cache.ts). */
export function headerCacheFor(ctx: ProjectContext, memoryDir: string): HeaderCache {
  return new HeaderCache(cacheFileFor(ctx, 'headers', memoryDir))
}

/** The scan a CLI command or hook runs: the newest headers, through that dir's header cache. */
export function cachedScan(ctx: ProjectContext): (memoryDir: string) => Promise<MemoryHeader[]> {
  return (memoryDir) => scanMemoryFiles(memoryDir, { headerCache: headerCacheFor(ctx, memoryDir) })
}
