import { MemdirError } from '../../../src-shared/errors.js'
import type { MemoryInput } from '../../../src-shared/contract.js'
import type { MemoryDoc, MemoryListItem, SearchHitView } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { TEAM_DIRNAME } from '../../core/paths/team-agent-paths.js'
import { type MemoryFormat } from '../../core/store/frontmatter.js'
import { memoryFileSlug } from '../../core/store/file-slug.js'
import type { MemoryStyle } from '../../core/store/memory-format.js'
import {
  createMemory,
  deleteMemory,
  readMemory,
  renameMemory,
  updateMemory,
} from '../../core/store/memory-files.js'
import { MemoryIndex } from '../../core/store/memory-index.js'
import type { RecordedWrite } from '../../core/store/recorded-write.js'
import { scanMemoryFiles } from '../../core/store/scan.js'
import type { MemorySearchIndex } from '../../core/store/search-index.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import type { Writer } from '../history/recording.js'
import { indexView } from './index-view.js'
import { AGENT_PREFIX, docOf, listItemOf } from './memory-views.js'
import { indexLinePastCut } from './index-view.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'

export interface MemoriesDeps {
  memoryDir: string
  /** `.claude/agent-memory/` of the project: listed read-only under `@agent/`. */
  agentRoot: string
  /** How a write reaches history for a writer (the app's recorder, or the CLI's history). */
  writer: (who: Writer) => RecordedWrite
  /** Who this service writes as: the user (the editor), or `mcp` with the client's name. */
  as: Writer
  /** How new memories are written: their frontmatter format and the client's stamps. */
  style: () => Promise<MemoryStyle>
  /** The app's watcher-fed headers (kept current after each write); without one, every list scans. */
  index?: MemoryIndex
  /** Full-text search over the memories (the app builds it in the background). */
  search?: MemorySearchIndex
}

/**
 * The file a new memory gets: the name given (`.md` added), else a slug of its name in the
 * project's format. A name typed for a new file loses the spaces around it; one that names an
 * existing memory (`existing`: an update) is its path as listed, a leading space included.
 */
export function newMemoryPath(
  scope: 'private' | 'team',
  name: string,
  fileName: string | undefined,
  format: MemoryFormat,
  existing = false,
): string {
  const given = existing ? fileName : fileName?.trim()
  const file = given ? (given.endsWith('.md') ? given : `${given}.md`) : `${memoryFileSlug(name, format)}.md`
  if (scope !== 'team' || file.startsWith(`${TEAM_DIRNAME}/`)) return file
  return `${TEAM_DIRNAME}/${file}`
}

/**
 * The memories of one project, read and written as the editor and every agent do: validation,
 * the one name rule, atomic hash-checked writes with their MEMORY.md line, the secret firewall,
 * and history under the writer `deps.as`. The desktop workspace and `memdir mcp` use it alike.
 */
export function createMemoriesService(ctx: ProjectContext, deps: MemoriesDeps) {
  const { index } = deps
  const record = () => deps.writer(deps.as)
  const refresh = async (rels: string[]) => {
    await index?.update(rels)
  }
  // Without the app's index (MCP, the CLI), every list is a fresh scan.
  const headers = () =>
    index ? index.list() : scanMemoryFiles(deps.memoryDir, { limit: Infinity, scanner: scannerFor(ctx) })

  const split = (relPath: string) =>
    relPath.startsWith(AGENT_PREFIX)
      ? { dir: deps.agentRoot, rel: relPath.slice(AGENT_PREFIX.length), agent: true }
      : { dir: deps.memoryDir, rel: relPath, agent: false }

  const writable = (relPath: string): string => {
    const p = split(relPath)
    if (p.agent)
      throw new MemdirError(
        'READ_ONLY',
        'Agent memories are shown read-only; the subagent that owns them edits them.',
      )
    return p.rel
  }

  /** A memory of this dir whose index line the agent never loads says so (agent memories have no index). */
  const withIndexState = async (doc: MemoryDoc): Promise<MemoryDoc> =>
    doc.scope !== 'agent' && (await indexLinePastCut(deps.memoryDir, doc.relPath))
      ? { ...doc, pastIndexCut: true }
      : doc

  return {
    memoryDir: deps.memoryDir,

    /** Every memory, newest first; `first`: only the newest so many (the same order, cut). */
    async list(first = Infinity): Promise<MemoryListItem[]> {
      const now = Date.now()
      const own = (await headers()).map((h) => listItemOf(h, h.filename, now))
      const agent = new MemoryIndex(deps.agentRoot)
      const agentItems = (await agent.list()).map((h) => listItemOf(h, AGENT_PREFIX + h.filename, now))
      return [...own, ...agentItems].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, first)
    },

    async read(relPath: string): Promise<MemoryDoc> {
      const p = split(relPath)
      return withIndexState(docOf(await readMemory(p.dir, p.rel), relPath))
    },

    /** Where a new memory of this name goes, in this project's format. */
    async pathFor(scope: 'private' | 'team', name: string, fileName?: string): Promise<string> {
      return newMemoryPath(scope, name, fileName, (await deps.style()).format)
    },

    async create(
      input: MemoryInput,
      scope: 'private' | 'team',
      fileName?: string,
      acceptSecretWarning = false,
    ): Promise<MemoryDoc> {
      const { format, stamps } = await deps.style()
      const doc = await createMemory(deps.memoryDir, {
        name: input.name,
        description: input.description,
        type: input.type ?? undefined,
        body: input.body,
        relPath: newMemoryPath(scope, input.name, fileName, format),
        format,
        stamps,
        acceptPrivateSecret: acceptSecretWarning,
        record: record(),
      })
      await refresh([doc.relPath])
      return withIndexState(docOf(doc))
    },

    async update(
      relPath: string,
      input: MemoryInput,
      expectedHash: string,
      acceptSecretWarning = false,
    ): Promise<MemoryDoc> {
      const rel = writable(relPath)
      const { format, stamps } = await deps.style()
      const doc = await updateMemory(
        deps.memoryDir,
        rel,
        { ...input, type: input.type ?? undefined },
        expectedHash,
        format,
        { acceptPrivateSecret: acceptSecretWarning, record: record(), stamps },
      )
      await refresh([rel])
      return withIndexState(docOf(doc))
    },

    async rename(from: string, to: string, acceptSecretWarning = false): Promise<MemoryDoc> {
      const doc = await renameMemory(deps.memoryDir, writable(from), writable(to), {
        record: record(),
        acceptPrivateSecret: acceptSecretWarning,
      })
      await refresh([from, to])
      return withIndexState(docOf(doc))
    },

    async delete(relPath: string, expectedHash?: string): Promise<void> {
      const rel = writable(relPath)
      await deleteMemory(deps.memoryDir, rel, expectedHash, { record: record() })
      await refresh([rel])
    },

    search(query: string): Promise<SearchHitView[]> {
      if (!deps.search) throw new MemdirError('NOT_STARTED', 'Search is not available here.')
      return deps.search.search(query)
    },

    indexView: () => indexView(deps.memoryDir),
  }
}

export type MemoriesService = ReturnType<typeof createMemoriesService>

/** The editor's calls, against the open workspace's memories. */
export function memoriesHandlers(
  memories: () => MemoriesService,
): FeatureHandlers<
  | 'memory/list'
  | 'memory/read'
  | 'memory/create'
  | 'memory/update'
  | 'memory/rename'
  | 'memory/delete'
  | 'memory/search'
  | 'index/get'
> {
  return {
    'memory/list': (args) => memories().list(args?.first),
    'memory/read': ({ relPath }) => memories().read(relPath),
    'memory/create': ({ input, scope, fileName, acceptSecretWarning }) =>
      memories().create(input, scope, fileName, acceptSecretWarning),
    'memory/update': ({ relPath, input, expectedHash, acceptSecretWarning }) =>
      memories().update(relPath, input, expectedHash, acceptSecretWarning),
    'memory/rename': ({ from, to, acceptSecretWarning }) => memories().rename(from, to, acceptSecretWarning),
    'memory/delete': ({ relPath, expectedHash }) => memories().delete(relPath, expectedHash),
    'memory/search': ({ query }) => memories().search(query),
    'index/get': () => memories().indexView(),
  }
}
