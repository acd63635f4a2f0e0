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

/** What stands in a tool result cleared to make room. */
export const CLEARED_RESULT =
  '[This tool result was cleared to fit the model’s context: run the tool again if it is needed.]'

/**
 * Clears a run's own oldest tool results, oldest first, until about `chars` characters are freed
 * (replacing messages in the array, never changing a message object). The newest message's
 * results stay: the model is about to read them. Returns the characters freed (0: none left).
 */
export function clearOldToolResults(messages: Anthropic.MessageParam[], chars: number): number {
  let freed = 0
  for (let i = 0; i < messages.length - 1 && freed < chars; i++) {
    const m = messages[i]!
    if (m.role !== 'user' || typeof m.content === 'string') continue
    const before = freed
    const content = m.content.map((b) => {
      if (freed >= chars || b.type !== 'tool_result') return b
      const size = JSON.stringify(b.content ?? '').length
      if (size <= CLEARED_RESULT.length * 2) return b
      freed += size - CLEARED_RESULT.length
      return { ...b, content: CLEARED_RESULT }
    })
    if (freed > before) messages[i] = { ...m, content }
  }
  return freed
}
