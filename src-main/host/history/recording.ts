import { relative, sep } from 'node:path'
import { HistoryStore, type HistoryAuthor, type HistoryChange } from '../../core/history/history-store.js'
import type { RecordedWrite } from '../../core/store/recorded-write.js'
import { reconcileHistory } from '../../core/history/recorder.js'
import { getAutoMemPath, isPathInside } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { historyDirFor } from '../settings/app-data.js'

export function openHistory(ctx: ProjectContext): { store: HistoryStore; memoryDir: string } {
  const memoryDir = getAutoMemPath(ctx)
  return { store: new HistoryStore(historyDirFor(ctx, memoryDir)), memoryDir }
}

/** Who a recorded write is for: the author, the run it belongs to, the client that asked. */
export interface Writer {
  author: HistoryAuthor
  runId?: string
  client?: string
  change?: HistoryChange
  restoredFrom?: number
}

/** Lets a watcher know a path is being written by a known writer (so it does not attribute it itself). */
export interface WriteClaims {
  claim: (relPath: string) => void
  release: (relPath: string) => void
}

/**
 * The recorded write every process uses (app, CLI, hooks, MCP): the write runs, then history
 * records it for `who` with its exact before/after. Paths outside the memory dir just run.
 */
export function recordingWrite(
  store: HistoryStore,
  memoryDir: string,
  who: Writer,
  claims?: WriteClaims,
): RecordedWrite {
  return async (absPath, write) => {
    if (!isPathInside(absPath, memoryDir)) {
      await write()
      return
    }
    const rel = relative(memoryDir, absPath).split(sep).join('/')
    claims?.claim(rel)
    try {
      const out = await write()
      if (rel.endsWith('.md')) await store.recordChange({ path: rel, ...who, ...out })
    } finally {
      claims?.release(rel)
    }
  }
}

/** For commands that write outside a running app: what changed while nothing watched is external. */
export async function historyForCli(ctx: ProjectContext) {
  const { store, memoryDir } = openHistory(ctx)
  await reconcileHistory(store, memoryDir, 'external')
  return { store, memoryDir, writer: (who: Writer) => recordingWrite(store, memoryDir, who) }
}
