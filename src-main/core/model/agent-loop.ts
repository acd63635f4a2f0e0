import { messageOf } from '../../../src-shared/errors.js'
import type Anthropic from '@anthropic-ai/sdk'
import type { RecordedWrite } from '../store/recorded-write.js'
import type { ModelClient } from './client.js'
import { type CacheSafeParams, withMessageBreakpoint } from './cache-safe.js'
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
  for (;;) {
    const tail = conversation.length
      ? [...conversation.slice(0, -1), withMessageBreakpoint(conversation[conversation.length - 1]!)]
      : []
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: opts.base.model,
      max_tokens: opts.maxTokens ?? 4096,
      system: opts.base.system as Anthropic.TextBlockParam[],
      tools: opts.base.tools as Anthropic.Tool[],
      messages: [...(opts.base.messages as Anthropic.MessageParam[]), ...tail],
    }
    const reply = await opts.client.createMessage(request, { signal: opts.signal })
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
    })
    if (toolUses.length === 0) return done('end_turn')
    // Sequential on purpose: two edits of one MEMORY.md must not race.
    const results: Anthropic.ToolResultBlockParam[] = []
    for (const block of toolUses) results.push(await runToolUse(block, opts, written, denials))
    conversation.push({ role: 'user', content: results })
    if (turns >= opts.maxTurns) return done('max_turns')
  }
}
