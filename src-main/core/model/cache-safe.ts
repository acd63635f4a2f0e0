import type Anthropic from '@anthropic-ai/sdk'

type CacheControl = { type: 'ephemeral' }
const EPHEMERAL: CacheControl = { type: 'ephemeral' }

/**
 * What a fork shares with its parent so the prompt cache is reused: model, system, tools and
 * the message prefix, exactly as the parent sent them (cache breakpoints included).
 */
export interface CacheSafeParams {
  readonly model: string
  readonly system: readonly Anthropic.TextBlockParam[]
  readonly tools: readonly Anthropic.Tool[]
  readonly messages: readonly Anthropic.MessageParam[]
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    Object.freeze(v)
    for (const x of Object.values(v)) deepFreeze(x)
  }
  return v
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T

/** A copy of `message` with a cache breakpoint on its last content block. */
export function withMessageBreakpoint(message: Anthropic.MessageParam): Anthropic.MessageParam {
  const blocks: Anthropic.ContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : clone(message.content)
  const last = blocks[blocks.length - 1]
  if (last && last.type !== 'thinking' && last.type !== 'redacted_thinking') {
    ;(last as { cache_control?: CacheControl }).cache_control = EPHEMERAL
  }
  return { ...message, content: blocks } as Anthropic.MessageParam
}

/**
 * Base params for a conversation: breakpoints on the last system block and the last tool,
 * plus the last prefix message when there is one.
 */
export function buildCacheSafeParams(input: {
  model: string
  system: string | Anthropic.TextBlockParam[]
  tools: Anthropic.Tool[]
  messages?: Anthropic.MessageParam[]
}): CacheSafeParams {
  const system: Anthropic.TextBlockParam[] =
    typeof input.system === 'string' ? [{ type: 'text', text: input.system }] : clone(input.system)
  if (system.length) (system[system.length - 1] as Anthropic.TextBlockParam).cache_control = EPHEMERAL
  const tools = clone(input.tools)
  if (tools.length) (tools[tools.length - 1] as Anthropic.Tool).cache_control = EPHEMERAL
  const messages = clone(input.messages ?? [])
  if (messages.length) messages[messages.length - 1] = withMessageBreakpoint(messages[messages.length - 1]!)
  return deepFreeze({ model: input.model, system, tools, messages })
}

/**
 * createCacheSafeParams: from the request a parent actually sent (and the reply that ended its
 * turn), the params a fork must reuse. Nothing is re-derived, so the bytes cannot drift.
 */
export function createCacheSafeParams(
  parentRequest: Pick<Anthropic.MessageCreateParams, 'model' | 'system' | 'tools' | 'messages'>,
  finalReply?: Anthropic.MessageParam,
): CacheSafeParams {
  const system: Anthropic.TextBlockParam[] =
    typeof parentRequest.system === 'string'
      ? [{ type: 'text', text: parentRequest.system }]
      : clone(parentRequest.system ?? [])
  const messages = clone(parentRequest.messages)
  if (finalReply) messages.push(clone(finalReply))
  return deepFreeze({
    model: parentRequest.model,
    system,
    tools: clone((parentRequest.tools ?? []) as Anthropic.Tool[]),
    messages,
  })
}
