import { readTextFile } from '../core/store/regular-file.js'
import type { MemoryDoc, MemoryListItem, RecallPreview } from '../../src-shared/types.js'
import { agentAdvice, MemdirError, toErrorValue } from '../../src-shared/errors.js'
import { readIndexText } from '../core/store/index-file.js'
import { join, posix } from 'node:path'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { McpToolInput } from '../../src-shared/mcp-tools.js'
import { count, grouped } from '../../src-shared/words.js'
import { ENTRYPOINT_NAME } from '../core/paths/auto-mem-path.js'
import { MAX_MEMORY_FILES } from '../core/store/memory-header.js'
import type { ProjectContext } from '../core/paths/context.js'
import { TEAM_DIRNAME } from '../core/paths/team-agent-paths.js'
import { AgentMemory } from './agent-memory.js'

const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
})

/**
 * How much of the list one memory_list answer holds. Agents show a tool's answer to their model
 * only up to a size: Claude Code keeps one over 50,000 characters out of the conversation (2.1.88:
 * in a file, with a 2,000-character preview), Codex shows ~12,000 characters of it and cuts the
 * middle out. So a list comes in pages that every one of them passes on whole, each told where
 * the next starts.
 */
export const LIST_PAGE_CHARS = 10_000

/** One page of the list from `offset`, in compact JSON, with the total and where the next page starts. */
export function listPage(all: readonly MemoryListItem[], offset: number): string {
  const items: string[] = []
  let size = 0
  for (let i = offset; i < all.length; i++) {
    const { relPath, name, description, type, scope, age } = all[i]!
    const item = JSON.stringify({ relPath, name, description, type, scope, age })
    if (items.length && size + item.length + 2 > LIST_PAGE_CHARS - 100) break
    items.push(item)
    size += item.length + 2
  }
  const next = offset + items.length
  const head = `{"total":${all.length},"offset":${offset},${next < all.length ? `"next_offset":${next},` : ''}"memories":[`
  return `${head}\n${items.join(',\n')}\n]}`
}

/** Where a body page read from `offset` ends: at a line end, its JSON within `budget` characters. */
function pageEnd(body: string, offset: number, budget: number): number {
  let end = offset
  while (end < body.length) {
    const nl = body.indexOf('\n', end)
    const next = nl < 0 ? body.length : nl + 1
    if (JSON.stringify(body.slice(offset, next)).length > budget) break
    end = next
  }
  if (end > offset) return end
  // One line longer than a page: cut inside it, never between a surrogate pair's halves.
  end = Math.min(body.length, offset + Math.floor(budget / 6))
  return /[\uD800-\uDBFF]/.test(body[end - 1] ?? '') ? end - 1 : end
}

/**
 * A memory as memory_read answers: whole when it fits one answer (LIST_PAGE_CHARS), else its body
 * from `offset` to a line end, with the body's length and where the next page starts.
 */
export function readPage(doc: MemoryDoc, offset: number): { answer: Record<string, unknown>; end: number } {
  const { raw: _raw, body, ...meta } = doc
  if (offset > body.length)
    throw new MemdirError(
      'BAD_REQUEST',
      `offset ${offset} is past the end of the body (${count(body.length, 'character')})`,
    )
  if (offset === 0 && JSON.stringify({ ...meta, body }, null, 2).length <= LIST_PAGE_CHARS)
    return { answer: { ...meta, body }, end: body.length }
  const budget = LIST_PAGE_CHARS - JSON.stringify({ ...meta, body: '' }, null, 2).length - 120
  const end = pageEnd(body, offset, Math.max(budget, 1_000))
  return {
    answer: {
      ...meta,
      body_chars: body.length,
      offset,
      ...(end < body.length ? { next_offset: end } : {}),
      body: body.slice(offset, end),
    },
    end,
  }
}

/**
 * What one connection has read of each memory it read in pages: an update replaces the whole
 * body, so one written over a body read only in part would lose the rest (an agent that reads one
 * page and writes it back).
 */
class PartialReads {
  private readonly read = new Map<string, { hash: string; upTo: number; total: number }>()

  /** Notes a page of `relPath` (at `hash`) from `offset` to `end` of `total` characters. */
  saw(relPath: string, hash: string, offset: number, end: number, total: number): void {
    const key = posix.normalize(relPath)
    let r = this.read.get(key)
    if (!r || r.hash !== hash) r = { hash, upTo: 0, total }
    if (offset <= r.upTo) r.upTo = Math.max(r.upTo, end)
    if (r.upTo >= total) this.read.delete(key)
    else this.read.set(key, r)
  }

  /** Refuses an update of a memory this connection has read only the start of, at that hash. */
  checkUpdate(relPath: string | undefined, expectedHash: string | undefined): void {
    const r = relPath === undefined ? undefined : this.read.get(posix.normalize(relPath))
    if (!r || r.hash !== expectedHash) return
    throw new MemdirError(
      'BAD_REQUEST',
      `you have read ${grouped(r.upTo)} of the ${grouped(r.total)} characters of this memory's body: an update replaces the whole body, and the rest would be lost. Read the rest (memory_read with offset ${r.upTo}), then write the whole body`,
    )
  }

  forget(relPath: string | undefined): void {
    if (relPath !== undefined) this.read.delete(posix.normalize(relPath))
  }
}

/** What an agent needs to hear to recover: the code, what happened, and what to do next. */
export function describeForAgent(e: unknown): string {
  const { code, message, details } = toErrorValue(e)
  if (code === 'CONFLICT') {
    const hash = (details as { currentHash?: string | null } | undefined)?.currentHash
    return hash
      ? `CONFLICT: the memory changed since you read it (its hash is now ${hash}). Read it again with memory_read, merge your change, and retry with the new expected_hash.`
      : 'CONFLICT: the memory no longer exists; create it again without expected_hash if it is still needed.'
  }
  const advice = agentAdvice(code, details)
  const stop = /[.!?]$/.test(message) ? '' : '.'
  return `${code === 'INTERNAL' ? 'ERROR' : code}: ${message}${advice ? `${stop} ${advice}` : ''}`
}

async function answer(run: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    const value = await run()
    return typeof value === 'string' ? { content: [{ type: 'text', text: value }] } : json(value)
  } catch (e) {
    return { content: [{ type: 'text', text: describeForAgent(e) }], isError: true }
  }
}

const URI_PREFIX = 'memory:///'
const uriOf = (relPath: string) => URI_PREFIX + relPath.split('/').map(encodeURIComponent).join('/')

/** The MCP server for one project's memory: five tools and the memory files as resources. */
export function createMcpServer(ctx: ProjectContext, version: string): McpServer {
  const server = new McpServer(
    { name: 'memdir', title: 'Memdir memory', version },
    {
      instructions:
        'Persistent memory for this project, shared with Claude Code (the same files). Search it at the start of a task with memory_search; save what a future session should know with memory_write (one fact per memory, a one-line description). Update a memory by reading it first and passing its hash as expected_hash.',
    },
  )
  const client = () => server.server.getClientVersion()?.name
  const mem = new AgentMemory(ctx, client)
  const partial = new PartialReads()

  server.registerTool(
    'memory_list',
    {
      title: 'List memories',
      description:
        'Every memory of this project, newest first: path, name, one-line description, type, scope and age. A long list comes in pages: call again with offset set to next_offset for the next one.',
      inputSchema: McpToolInput.memory_list,
      annotations: { readOnlyHint: true },
    },
    (args) => answer(async () => listPage(await mem.list(args.scope), args.offset)),
  )
  server.registerTool(
    'memory_read',
    {
      title: 'Read a memory',
      description:
        'One memory, with the hash to pass as expected_hash when updating or deleting it. A long body comes in pages: call again with offset set to next_offset, and read it all before updating it.',
      inputSchema: McpToolInput.memory_read,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(async () => {
        const doc = await mem.read(args.path)
        const { answer: page, end } = readPage(doc, args.offset)
        partial.saw(doc.relPath, doc.hash, args.offset, end, doc.body.length)
        return page
      }),
  )
  server.registerTool(
    'memory_search',
    {
      title: 'Recall memories',
      description:
        'The memories relevant to what you are working on (at most 5), as recall injects them: each with its age and a staleness warning when old.',
      inputSchema: McpToolInput.memory_search,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(async () => {
        const r = await mem.search(args.query, args.recent_tools)
        if (r.error) throw new MemdirError('RECALL_FAILED', r.error)
        return [recallHeadline(r), ...r.injections].join('\n\n')
      }),
  )
  server.registerTool(
    'memory_write',
    {
      title: 'Save a memory',
      description:
        'Create a memory, or update one (pass expected_hash from memory_read). Indexed in MEMORY.md, recorded in history; secrets are refused. In review mode the write waits for the user in the inbox.',
      inputSchema: McpToolInput.memory_write,
      annotations: { destructiveHint: false, idempotentHint: false },
    },
    (args) =>
      answer(async () => {
        if (args.expected_hash) partial.checkUpdate(args.path, args.expected_hash)
        const written = await mem.write(args)
        partial.forget(args.path)
        return written
      }),
  )
  server.registerTool(
    'memory_delete',
    {
      title: 'Delete a memory',
      description: 'Delete a memory and its MEMORY.md line; refused if it changed since you read it.',
      inputSchema: McpToolInput.memory_delete,
      annotations: { destructiveHint: true },
    },
    (args) => answer(() => mem.delete(args)),
  )

  server.registerResource(
    'memory-index',
    uriOf(ENTRYPOINT_NAME),
    { title: 'MEMORY.md', description: 'The memory index the agent loads', mimeType: 'text/markdown' },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/markdown',
          text: (await readIndexText(join(mem.memoryDir, ENTRYPOINT_NAME))) ?? '',
        },
      ],
    }),
  )
  server.registerResource(
    'memory-file',
    new ResourceTemplate(`${URI_PREFIX}{+path}`, {
      // The newest 200, as the list Claude Code's own selector sees: a client lists resources whole
      // (at 10,000 memories that is megabytes), and memory_list pages through every one.
      list: async () => ({
        resources: (await mem.list('all', MAX_MEMORY_FILES)).map((m) => ({
          uri: uriOf(m.relPath),
          name: m.relPath,
          title: m.name,
          description: m.description ?? undefined,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    { title: 'Memory file', mimeType: 'text/markdown' },
    async (uri, vars) => {
      const rel = decodeURIComponent(String(vars.path))
      const text =
        rel === `${TEAM_DIRNAME}/${ENTRYPOINT_NAME}`
          ? await readTextFile(join(mem.memoryDir, rel))
          : (await mem.read(rel)).raw
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] }
    },
  )
  return server
}

/** The first line of a memory_search answer: how many memories were found among how many, and how. */
export function recallHeadline(r: Pick<RecallPreview, 'mode' | 'note' | 'candidates' | 'selected'>): string {
  if (r.candidates === 0) return 'No memories to search yet: this project has none.'
  const how = r.mode === 'model' ? 'selected by the model' : (r.note ?? 'offline ranking')
  const found = r.selected.length === 0 ? 'No relevant memory' : `${r.selected.length} relevant`
  return `${found} among ${count(r.candidates, 'memory', 'memories')} (${how}).`
}
