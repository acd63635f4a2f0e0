import { HistoryStore, type HistoryAuthor } from '../core/history/history-store.js'
import { allMarkdown, reconcileHistory } from '../core/history/recorder.js'
import { getAutoMemPath } from '../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../core/paths/context.js'
import { historyDirFor } from './app-data.js'

export function openHistory(ctx: ProjectContext): { store: HistoryStore; memoryDir: string } {
  const memoryDir = getAutoMemPath(ctx)
  return { store: new HistoryStore(historyDirFor(ctx, memoryDir)), memoryDir }
}

/** Runs `fn` (a CLI extraction or dream) so that its changes land in history as one run. */
export async function recordedRun<T>(
  ctx: ProjectContext,
  author: HistoryAuthor,
  fn: () => Promise<T>,
): Promise<T> {
  const { store, memoryDir } = openHistory(ctx)
  await reconcileHistory(store, memoryDir, 'external')
  try {
    return await fn()
  } finally {
    // Every file now on disk or ever seen: new and changed ones are this run's.
    const paths = new Set([...(await allMarkdown(memoryDir)), ...(await store.list()).map((e) => e.path)])
    await reconcileHistory(store, memoryDir, author, { paths, runId: `${author}-${Date.now()}` })
  }
}
