import { join } from 'node:path'
import { readVerifiedTimes } from '../../core/history/verified-times.js'
import type { ProjectContext } from '../../core/paths/context.js'
import type { StalenessBasis } from '../../core/staleness/recall-notes.js'
import { historyDirFor } from '../settings/app-data.js'

/** History's "still true" marks (by path in the memory dir) keyed by each memory's full path, as recall names them. */
export function byMemoryPath(
  memoryDir: string,
  byRelPath: () => Promise<ReadonlyMap<string, number>>,
): () => Promise<Map<string, number>> {
  return async () => new Map([...(await byRelPath())].map(([rel, at]) => [join(memoryDir, rel), at]))
}

/**
 * What recall judges a memory's staleness against, as Health does: the project's code, and the
 * memory dir's history for when the user last marked a memory as still true.
 */
export function stalenessBasisFor(
  ctx: ProjectContext,
  memoryDir: string,
  projectRoot: string = ctx.projectRoot,
): StalenessBasis {
  return {
    projectRoot,
    verifiedTimes: byMemoryPath(memoryDir, () => readVerifiedTimes(historyDirFor(ctx, memoryDir))),
  }
}
