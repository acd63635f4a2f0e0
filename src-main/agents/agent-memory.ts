import { MemdirError } from '../../src-shared/errors.js'
import type { McpArgs } from '../../src-shared/mcp-tools.js'
import type { MemoryDoc, MemoryListItem, RecallPreview } from '../../src-shared/types.js'
import { getAutoMemPath } from '../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../core/paths/context.js'
import { getAutoMemoryEnablement, getTeamMemoryEnablement } from '../core/paths/enablement.js'
import { ProposalStore } from '../core/review/proposals.js'
import { planMemoryDelete, planMemoryWrite, readMemory } from '../core/store/memory-files.js'
import { onDiskSpelling } from '../core/store/twin-names.js'
import {
  appendActivity,
  activityFileFor,
  newActivityItem,
  type ActivityInput,
} from '../host/activity/activity-store.js'
import { proposalsDirFor } from '../host/settings/app-data.js'
import { loadEffectiveConfig } from '../host/settings/config.js'
import { historyForCli } from '../host/history/recording.js'
import { agentMemoryRoot, docOf, listItemOf, scopeOf } from '../host/memories/memory-views.js'
import { createMemoriesService, newMemoryPath } from '../host/memories/service.js'
import { modelRuntimeFor } from '../host/settings/model-runtime.js'
import { cachedScan, headerCachedScan, termIndexFor } from '../host/memories/memory-caches.js'
import { recallPreview } from '../host/previews/recall-view.js'
import { memoryStyleOf } from '../host/previews/prompt-view.js'
import { scannerFor } from '../core/store/scan-worker-client.js'
import { stalenessBasisFor } from '../host/previews/staleness-basis.js'

/**
 * What a write answers: the memory without its text, which the agent just sent (echoing it twice,
 * body and raw, made a long memory's answer too large for a client to keep in the conversation).
 */
export type WriteOutcome =
  | { status: 'created' | 'updated'; memory: Omit<MemoryDoc, 'body' | 'raw'> }
  | { status: 'proposed'; proposalId: string; files: string[] }

export type DeleteOutcome = { status: 'deleted'; path: string } | { status: 'proposed'; proposalId: string }

/**
 * The memory of one project as an agent reaches it (MCP tools, hooks): the same core functions
 * the editor uses — validation, atomic and hash-checked writes, the secret firewall, history
 * (author `mcp` with the client's name) and review mode (writes become inbox proposals).
 */
export class AgentMemory {
  readonly memoryDir: string

  constructor(
    readonly ctx: ProjectContext,
    /** Who is asking: the MCP client's name (shown in history and the activity feed). */
    private readonly client: () => string | undefined = () => undefined,
  ) {
    this.memoryDir = getAutoMemPath(ctx)
  }

  private note(input: ActivityInput): Promise<void> {
    const client = this.client()
    const item = newActivityItem({ ...input, source: client ? `mcp: ${client}` : 'mcp' })
    return appendActivity(activityFileFor(this.ctx, this.memoryDir), item)
  }

  /** The memories of the scope, newest first: every one (not only the 200 a model selector is shown), or the newest `limit`. */
  async list(scope: McpArgs<'memory_list'>['scope'], limit = Infinity): Promise<MemoryListItem[]> {
    const now = Date.now()
    return (await cachedScan(this.ctx, limit)(this.memoryDir))
      .map((h) => listItemOf(h, h.filename, now))
      .filter((m) => scope === 'all' || m.scope === scope)
  }

  async read(path: string): Promise<MemoryDoc> {
    return docOf(await readMemory(this.memoryDir, await onDiskSpelling(this.memoryDir, path)))
  }

  async search(query: string, recentTools: string[]): Promise<RecallPreview> {
    const { client } = modelRuntimeFor(this.ctx, { maxRetries: 0 })
    // Through the caches `memdir recall` and the prompt hook keep (a stat pass, then only what
    // changed is read; the postings file): a search is not a read of every memory file. New ones
    // per search, so two searches at once share nothing.
    const {
      memories: _m,
      rawSelection: _r,
      ...preview
    } = await recallPreview(this.memoryDir, query, {
      client,
      recentTools,
      offlineFallback: true,
      staleness: stalenessBasisFor(this.ctx, this.memoryDir),
      scan: headerCachedScan(this.ctx, Infinity),
      termCache: termIndexFor(this.ctx, this.memoryDir),
      scanner: scannerFor(this.ctx),
    })
    return preview
  }

  private assertWritable(relPath: string): void {
    const auto = getAutoMemoryEnablement(this.ctx)
    if (!auto.enabled)
      throw new MemdirError(
        'DISABLED',
        `Auto memory is off for this project (${auto.reason}): nothing was written.`,
      )
    if (scopeOf(relPath) === 'team') {
      const team = getTeamMemoryEnablement(this.ctx)
      if (!team.enabled)
        throw new MemdirError('DISABLED', `Team memory is off for this project (${team.reason}).`)
    }
  }

  private reviewMode(): boolean {
    return loadEffectiveConfig(this.ctx).reviewMode.value
  }

  /** The memories service the editor uses, writing as `mcp` with the client's name. */
  private async memories() {
    const history = await historyForCli(this.ctx)
    return createMemoriesService(this.ctx, {
      memoryDir: this.memoryDir,
      agentRoot: agentMemoryRoot(this.ctx.projectRoot),
      writer: history.writer,
      as: { author: 'mcp', client: this.client() },
      style: () => memoryStyleOf(this.ctx, this.memoryDir),
    })
  }

  /** The existing memory to update, or where a new one goes (the same rule as the editor's). */
  private async targetPath(args: McpArgs<'memory_write'>): Promise<string> {
    const { format } = await memoryStyleOf(this.ctx, this.memoryDir)
    const existing = args.expected_hash !== undefined
    const path = newMemoryPath(args.scope, args.name, args.path, format, existing)
    return existing ? onDiskSpelling(this.memoryDir, path) : path
  }

  async write(args: McpArgs<'memory_write'>): Promise<WriteOutcome> {
    const relPath = await this.targetPath(args)
    this.assertWritable(relPath)
    const fields = { name: args.name, description: args.description, type: args.type, body: args.body }
    if (this.reviewMode()) {
      const { format, stamps } = await memoryStyleOf(this.ctx, this.memoryDir)
      const files = await planMemoryWrite(this.memoryDir, relPath, fields, args.expected_hash, format, stamps)
      const proposal = await new ProposalStore(proposalsDirFor(this.ctx, this.memoryDir)).create({
        author: 'mcp',
        client: this.client(),
        reason: args.reason?.trim() || `${args.expected_hash ? 'Update' : 'New'} memory: ${args.name}`,
        files,
      })
      await this.note({
        kind: 'agent',
        level: 'info',
        title: 'An agent proposed a memory for review',
        detail: proposal.reason,
        files: [],
        proposalId: proposal.id,
      })
      return { status: 'proposed', proposalId: proposal.id, files: files.map((f) => f.path) }
    }
    const memories = await this.memories()
    const input = { ...fields, type: fields.type ?? null }
    const created = args.expected_hash === undefined
    const memory = created
      ? // The path as targetPath made it: stripping its team/ and adding it back would also take the
        // first folder of `team/team/notes.md` for the scope's own.
        await memories.create(input, scopeOf(relPath) === 'team' ? 'team' : 'private', relPath)
      : await memories.update(relPath, input, args.expected_hash!)
    await this.note({
      kind: 'agent',
      level: 'success',
      title: `An agent ${created ? 'saved' : 'updated'} a memory`,
      detail: args.name,
      files: [relPath],
    })
    const { body: _body, raw: _raw, ...saved } = memory
    return { status: created ? 'created' : 'updated', memory: saved }
  }

  async delete(asked: McpArgs<'memory_delete'>): Promise<DeleteOutcome> {
    const args = { ...asked, path: await onDiskSpelling(this.memoryDir, asked.path) }
    this.assertWritable(args.path)
    if (this.reviewMode()) {
      const files = await planMemoryDelete(this.memoryDir, args.path, args.expected_hash)
      const proposal = await new ProposalStore(proposalsDirFor(this.ctx, this.memoryDir)).create({
        author: 'mcp',
        client: this.client(),
        reason: args.reason?.trim() || `Delete ${args.path}`,
        files,
      })
      return { status: 'proposed', proposalId: proposal.id }
    }
    await (await this.memories()).delete(args.path, args.expected_hash)
    await this.note({ kind: 'agent', level: 'info', title: 'An agent deleted a memory', files: [args.path] })
    return { status: 'deleted', path: args.path }
  }
}
