import { MemdirError } from '../../../src-shared/errors.js'
import type { MemoryDoc, MemoryInput, MemoryListItem } from '../../../src-shared/types.js'
import { TEAM_DIRNAME } from '../../core/paths/team-agent-paths.js'
import type { MemoryFormat } from '../../core/store/frontmatter.js'
import { kebabSlug } from '../../core/store/frontmatter.js'
import {
  createMemory,
  deleteMemory,
  readMemory,
  renameMemory,
  slugForName,
  updateMemory,
} from '../../core/store/memory-files.js'
import { MemoryIndex } from '../../core/store/memory-index.js'
import type { ChangeRecorder } from '../history/change-recorder.js'
import { AGENT_PREFIX, docOf, listItemOf } from './memory-views.js'

export interface MemoryCrudDeps {
  memoryDir: string
  /** `.claude/agent-memory/` of the project: listed read-only under `@agent/`. */
  agentRoot: string
  index: MemoryIndex
  recorder: ChangeRecorder
  /** The frontmatter format new memories are written in. */
  format: () => Promise<MemoryFormat>
}

/** The editor's reads and writes: every write also updates the index and lands in history as the user's. */
export class MemoryCrud {
  constructor(private readonly deps: MemoryCrudDeps) {}

  async list(): Promise<MemoryListItem[]> {
    const now = Date.now()
    const own = (await this.deps.index.list()).map((h) => listItemOf(h, h.filename, now))
    const agent = new MemoryIndex(this.deps.agentRoot)
    const agentItems = (await agent.list()).map((h) => listItemOf(h, AGENT_PREFIX + h.filename, now))
    return [...own, ...agentItems].sort((a, b) => b.mtimeMs - a.mtimeMs)
  }

  private split(relPath: string): { dir: string; rel: string; agent: boolean } {
    return relPath.startsWith(AGENT_PREFIX)
      ? { dir: this.deps.agentRoot, rel: relPath.slice(AGENT_PREFIX.length), agent: true }
      : { dir: this.deps.memoryDir, rel: relPath, agent: false }
  }

  private writable(relPath: string): string {
    const p = this.split(relPath)
    if (p.agent)
      throw new MemdirError(
        'READ_ONLY',
        'Agent memories are shown read-only; the subagent that owns them edits them.',
      )
    return p.rel
  }

  async read(relPath: string): Promise<MemoryDoc> {
    const p = this.split(relPath)
    return docOf(await readMemory(p.dir, p.rel), relPath)
  }

  /** Editor writes (the file and the MEMORY.md that indexes it) are recorded as the user's. */
  private readonly record = () => this.deps.recorder.writer({ author: 'user' })

  private async refreshIndex(rels: string[]) {
    await this.deps.index.update(rels)
  }

  async create(
    input: MemoryInput,
    scope: 'private' | 'team',
    fileName?: string,
    acceptSecretWarning = false,
  ): Promise<MemoryDoc> {
    const format = await this.deps.format()
    const given = fileName?.trim()
    const base = given ? (given.endsWith('.md') ? given : `${given}.md`) : undefined
    const slug = format === 'nested' ? kebabSlug(input.name) : slugForName(input.name)
    const file = base ?? `${slug}.md`
    const doc = await createMemory(this.deps.memoryDir, {
      name: input.name,
      description: input.description,
      type: input.type ?? undefined,
      body: input.body,
      relPath: scope === 'team' ? `${TEAM_DIRNAME}/${file}` : file,
      format,
      acceptPrivateSecret: acceptSecretWarning,
      record: this.record(),
    })
    await this.refreshIndex([doc.relPath])
    return docOf(doc)
  }

  async update(
    relPath: string,
    input: MemoryInput,
    expectedHash: string,
    acceptSecretWarning = false,
  ): Promise<MemoryDoc> {
    const rel = this.writable(relPath)
    const doc = await updateMemory(
      this.deps.memoryDir,
      rel,
      { ...input, type: input.type ?? undefined },
      expectedHash,
      await this.deps.format(),
      { acceptPrivateSecret: acceptSecretWarning, record: this.record() },
    )
    await this.refreshIndex([rel])
    return docOf(doc)
  }

  async rename(from: string, to: string): Promise<MemoryDoc> {
    const doc = await renameMemory(this.deps.memoryDir, this.writable(from), this.writable(to), {
      record: this.record(),
    })
    await this.refreshIndex([from, to])
    return docOf(doc)
  }

  async delete(relPath: string, expectedHash?: string): Promise<void> {
    const rel = this.writable(relPath)
    await deleteMemory(this.deps.memoryDir, rel, expectedHash, { record: this.record() })
    await this.refreshIndex([rel])
  }
}
