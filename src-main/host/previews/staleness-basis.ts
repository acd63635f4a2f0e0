import { join } from 'node:path'
import { readVerifiedTimes } from '../../core/history/verified-times.js'
import type { ProjectContext } from '../../core/paths/context.js'
import type { StalenessBasis } from '../../core/staleness/recall-notes.js'
import { historyDirFor } from '../settings/app-data.js'

/**
 * When the user last marked each memory of `memoryDir` as still true (history's verify entries),
 * keyed by the memory's full path, as recall names it.
 */
export function verifiedTimesFor(ctx: ProjectContext, memoryDir: string): () => Promise<Map<string, number>> {
  return async () => {
    const byRelPath = await readVerifiedTimes(historyDirFor(ctx, memoryDir))
    return new Map([...byRelPath].map(([rel, at]) => [join(memoryDir, rel), at]))
  }
}

/**
 * What recall judges a memory's staleness against, as Health does: the project's code, and the
 * memory dir's history for when the user last marked a memory as still true.
 */
export function stalenessBasisFor(ctx: ProjectContext, memoryDir: string): StalenessBasis {
  return { projectRoot: ctx.projectRoot, verifiedTimes: verifiedTimesFor(ctx, memoryDir) }
}
