import type { TermSource } from '../../core/recall/term-source.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import { MAX_MEMORY_FILES, type Scanner } from '../../core/store/scan.js'
import type { AgentJobHandlers, AgentReply } from '../integrations/agent-socket.js'
import { manifestView } from '../memories/manifest-view.js'
import { recallPreview } from '../previews/recall-view.js'

/** What a long-running process holds for the one memory dir it follows. */
export interface HeldMemories {
  memoryDir: string
  /** The newest `limit` memories, newest first, as the process knows them now. */
  list: (limit: number) => Promise<readonly MemoryHeader[]>
  termCache: TermSource
  scanner: Scanner
  /** The project folder of an agent's cwd (recalled memories get their code-staleness line). */
  projectRoot: (cwd: string) => string
  /** When the user last marked each memory (by its full path) as still true. */
  verifiedTimes: () => Promise<ReadonlyMap<string, number>>
}

/**
 * How the app and `memdir watch` answer `memdir list` and `memdir recall` over the agent socket:
 * the same data the command would have computed, as JSON, for the memory dir the command resolved
 * when it is the one held here (else the command does the work itself).
 */
export function cliJobHandlers(
  held: () => HeldMemories | undefined,
  elsewhere: AgentReply,
): Required<Pick<AgentJobHandlers, 'list' | 'recall'>> {
  const heldFor = (memoryDir: string) => {
    const h = held()
    return h?.memoryDir === memoryDir ? h : undefined
  }
  return {
    list: async (job) => {
      const h = heldFor(job.memoryDir)
      if (!h) return elsewhere
      const view = await manifestView(h.memoryDir, () => h.list(MAX_MEMORY_FILES))
      return { accepted: true, value: JSON.stringify(view) }
    },
    recall: async (job) => {
      const h = heldFor(job.memoryDir)
      if (!h) return elsewhere
      const run = await recallPreview(h.memoryDir, job.query, {
        recentTools: job.recentTools,
        staleness: { projectRoot: h.projectRoot(job.cwd), verifiedTimes: h.verifiedTimes },
        termCache: h.termCache,
        scan: () => h.list(Infinity),
        scanner: h.scanner,
      })
      return { accepted: true, value: JSON.stringify(run) }
    },
  }
}
