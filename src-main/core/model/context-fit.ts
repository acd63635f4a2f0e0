import type Anthropic from '@anthropic-ai/sdk'
import { messageOf } from '../../../src-shared/errors.js'

/**
 * How much smaller a refused request must get: the API refuses a prompt over the model's context
 * window with a 400 "prompt is too long: N tokens > M maximum", and a body over its byte limit
 * with a 413. Undefined for every other error.
 */
export function tooLongBy(e: unknown): { keepShare: number } | undefined {
  const status = (e as { status?: unknown } | null)?.status
  if (status === 413) return { keepShare: 0.5 }
  if (status !== 400) return undefined
  const m = /prompt is too long: (\d+) tokens > (\d+) maximum/.exec(messageOf(e))
  if (!m) return undefined
  const [tokens, max] = [Number(m[1]), Number(m[2])]
  // Below the maximum with room for the run's own turns (its tool calls and their results).
  return tokens > 0 && max > 0 ? { keepShare: Math.min(0.9, (0.85 * max) / tokens) } : undefined
}

/** What the model is told stands where the conversation was cut. */
export const CUT_NOTE =
  '[The earlier part of this conversation was left out: it did not fit the model’s context.]'

const sizeOf = (m: Anthropic.MessageParam) => JSON.stringify(m).length

function blocksOf(m: Anthropic.MessageParam): Anthropic.ContentBlockParam[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [...m.content]
}

/**
 * The newest messages whose size is at most `keepChars` (as JSON, the way they are sent), opened
 * by a user message that says the rest was left out. A tool result whose call was left out goes
 * with it (the API refuses a result without its call). Undefined when not even the newest message
 * fits: the conversation cannot be cut to size.
 */
export function newestMessagesWithin(
  messages: readonly Anthropic.MessageParam[],
  keepChars: number,
): { messages: Anthropic.MessageParam[]; leftOut: number } | undefined {
  let start = messages.length
  let size = 0
  while (start > 0 && size + sizeOf(messages[start - 1]!) <= keepChars) size += sizeOf(messages[--start]!)
  if (start === messages.length) return undefined
  if (start === 0) return { messages: [...messages], leftOut: 0 }
  const kept = messages.slice(start)
  const note: Anthropic.TextBlockParam = { type: 'text', text: CUT_NOTE }
  const first = kept[0]!
  const opened: Anthropic.MessageParam[] =
    first.role === 'assistant'
      ? [{ role: 'user', content: [note] }, ...kept]
      : [
          { role: 'user', content: [note, ...blocksOf(first).filter((b) => b.type !== 'tool_result')] },
          ...kept.slice(1),
        ]
  return { messages: opened, leftOut: start }
}
