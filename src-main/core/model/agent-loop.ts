import { messageOf } from '../../../src-shared/errors.js'
import type Anthropic from '@anthropic-ai/sdk'
import type { RecordedWrite } from '../store/recorded-write.js'
import type { ModelClient } from './client.js'
import { type CacheSafeParams, withMessageBreakpoint } from './cache-safe.js'
import { clearOldToolResults, newestMessagesWithin, tooLongBy } from './context-fit.js'
import type { CanUseTool } from './permissions.js'
import { type AgentTool, ToolInputError, type ToolContext } from './tools/types.js'

export interface ToolDenial {
  tool: string
  input: Record<string, unknown>
  reason: string
}

export interface AgentLoopOptions {
  client: ModelClient
  /** System, tools and message prefix shared with the parent (never modified). */
  base: CacheSafeParams
  /** The messages this run adds after the prefix (e.g. the fork's instruction). */
  messages: Anthropic.MessageParam[]
  /** Implementations, looked up by name; must match base.tools. */
  tools: readonly AgentTool[]
  canUseTool: CanUseTool
  maxTurns: number
  maxTokens?: number
  cwd: string
  signal?: AbortSignal
  /** How the tools' writes reach history (the run's recorded write). */
  record?: RecordedWrite
  /** What Write/Edit finally write for a path (ToolContext.stamp). */
  stamp?: ToolContext['stamp']
}

export interface AgentLoopResult {
  turns: number
  stopReason: 'end_turn' | 'max_turns'
  /** The messages this run added (its own, after the prefix). */
  messages: Anthropic.MessageParam[]
  writtenPaths: string[]
  denials: ToolDenial[]
  finalText: string
  /** The last request sent, as sent: a fork of this run reuses it via createCacheSafeParams. */
  lastRequest: Anthropic.MessageCreateParamsNonStreaming
  lastReply: Anthropic.MessageParam
  /** How many of the prefix's messages were left out because the model's context could not hold them. */
  prefixLeftOut: number
}

/** At most this many times in a row a request is made smaller: each follows a refused one. */
const MAX_CUTS = 3

/**
 * The parent's messages cut (from the oldest) so that a request, which carried `sent` of them, is
 * `less` characters smaller; undefined when nothing of them would be left.
 */
function cutPrefix(
  parent: CacheSafeParams,
  sent: CacheSafeParams,
  less: number,
): { base: CacheSafeParams; leftOut: number } | undefined {
  const keep = JSON.stringify(sent.messages).length - less
  const cut = keep > 0 ? newestMessagesWithin(parent.messages, keep) : undefined
  return cut?.leftOut ? { base: { ...parent, messages: cut.messages }, leftOut: cut.leftOut } : undefined
}

async function runToolUse(
  block: Anthropic.ToolUseBlock,
  opts: AgentLoopOptions,
  written: Set<string>,
  denials: ToolDenial[],
): Promise<Anthropic.ToolResultBlockParam> {
  const input = (block.input ?? {}) as Record<string, unknown>
  const result = (content: string, isError = false): Anthropic.ToolResultBlockParam => ({
    type: 'tool_result',
    tool_use_id: block.id,
    content,
    ...(isError ? { is_error: true } : {}),
  })
  const decision = await opts.canUseTool(block.name, input)
  if (decision.behavior === 'deny') {
    denials.push({ tool: block.name, input, reason: decision.message })
    return result(`Permission denied: ${decision.message}`, true)
  }
  const tool = opts.tools.find((t) => t.name === block.name)
  if (!tool) return result(`Unknown tool: ${block.name}`, true)
  try {
    const r = await tool.run(input, {
      cwd: opts.cwd,
      signal: opts.signal,
      record: opts.record,
      stamp: opts.stamp,
    })
    if (r.writtenPath) written.add(r.writtenPath)
    return result(r.content, r.isError)
  } catch (e) {
    const msg = e instanceof ToolInputError ? e.message : `${block.name} failed: ${messageOf(e)}`
    return result(msg, true)
  }
}

/**
 * The agent tool loop: call the model, run the tools it asks for (each through canUseTool),
 * feed results back, until it answers without tools or the turn limit is reached.
 */
export async function runAgentLoop(opts: AgentLoopOptions): Promise<AgentLoopResult> {
  const conversation = [...opts.messages]
  const written = new Set<string>()
  const denials: ToolDenial[] = []
  let turns = 0
  let base = opts.base
  let cuts = 0
  let prefixLeftOut = 0
  for (;;) {
    const tail = conversation.length
      ? [...conversation.slice(0, -1), withMessageBreakpoint(conversation[conversation.length - 1]!)]
      : []
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: base.model,
      max_tokens: opts.maxTokens ?? 4096,
      system: base.system as Anthropic.TextBlockParam[],
      tools: base.tools as Anthropic.Tool[],
      messages: [...(base.messages as Anthropic.MessageParam[]), ...tail],
    }
    let reply: Anthropic.Message
    try {
      reply = await opts.client.createMessage(request, { signal: opts.signal })
    } catch (e) {
      // Longer than the model's context: the parent conversation's oldest messages go first (the
      // newest stay), then the contents of this run's own oldest tool results.
      const over = tooLongBy(e)
      if (!over || cuts >= MAX_CUTS) throw e
      cuts++
      const less = (1 - over.keepShare) * JSON.stringify(request).length
      const cut = cutPrefix(opts.base, base, less)
      if (cut && cut.leftOut > prefixLeftOut) {
        ;({ base, leftOut: prefixLeftOut } = cut)
        continue
      }
      if (!clearOldToolResults(conversation, less)) throw e
      continue
    }
    cuts = 0
    turns++
    const replyParam: Anthropic.MessageParam = {
      role: 'assistant',
      content: reply.content as Anthropic.ContentBlockParam[],
    }
    conversation.push(replyParam)
    const toolUses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')
    const finalText = reply.content
      .filter((b): b is Anthropic.TextBlock => b.type === 'text')
      .map((b) => b.text)
      .join('')
    const done = (stopReason: AgentLoopResult['stopReason']): AgentLoopResult => ({
      turns,
      stopReason,
      messages: conversation,
      writtenPaths: [...written],
      denials,
      finalText,
      lastRequest: request,
      lastReply: replyParam,
      prefixLeftOut,
    })
    if (toolUses.length === 0) return done('end_turn')
    // Sequential on purpose: two edits of one MEMORY.md must not race.
    const results: Anthropic.ToolResultBlockParam[] = []
    for (const block of toolUses) results.push(await runToolUse(block, opts, written, denials))
    conversation.push({ role: 'user', content: results })
    if (turns >= opts.maxTurns) return done('max_turns')
  }
}
