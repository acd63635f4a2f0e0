import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import {
  CLEARED_RESULT,
  clearOldToolResults,
  CUT_NOTE,
  newestMessagesWithin,
  tooLongBy,
} from './context-fit.js'

const say = (role: 'user' | 'assistant', text: string): Anthropic.MessageParam => ({
  role,
  content: [{ type: 'text', text }],
})
const call = (id: string): Anthropic.MessageParam => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: '/a' } }],
})
const result = (id: string, text = 'file text'): Anthropic.MessageParam => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: text }],
})
const size = (ms: readonly Anthropic.MessageParam[]) => ms.reduce((n, m) => n + JSON.stringify(m).length, 0)

describe('a conversation cut to fit the model', () => {
  it('reads how much smaller a refused request must get', () => {
    // The SDK's own errors for the API's answers.
    const apiError = (status: number, type: string, message: string) =>
      Anthropic.APIError.generate(
        status,
        { type: 'error', error: { type, message } },
        undefined,
        new Headers(),
      )
    const refused = apiError(
      400,
      'invalid_request_error',
      'prompt is too long: 250000 tokens > 200000 maximum',
    )
    expect(tooLongBy(refused)!.keepShare).toBeCloseTo(0.68)
    expect(tooLongBy(apiError(413, 'request_too_large', 'Request exceeds the maximum size'))).toEqual({
      keepShare: 0.5,
    })
    expect(
      tooLongBy(apiError(400, 'invalid_request_error', 'messages: roles must alternate')),
    ).toBeUndefined()
    expect(
      tooLongBy(apiError(429, 'rate_limit_error', 'prompt is too long: 2 tokens > 1 maximum')),
    ).toBeUndefined()
    expect(tooLongBy(new Error('socket hang up'))).toBeUndefined()
  })

  it('keeps the newest messages, opened by a note, and never a result whose call was left out', () => {
    const messages = [
      say('user', 'a'.repeat(500)),
      call('t1'),
      result('t1', 'b'.repeat(500)),
      call('t2'),
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't2', content: 'c' },
          { type: 'text', text: 'and then?' },
        ],
      },
      say('assistant', 'the newest answer'),
    ] as Anthropic.MessageParam[]
    const kept = newestMessagesWithin(messages, size(messages.slice(4)))!
    expect(kept.leftOut).toBe(4)
    expect(kept.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: CUT_NOTE },
          { type: 'text', text: 'and then?' },
        ],
      },
      say('assistant', 'the newest answer'),
    ])
  })

  it('opens with a note of its own when the cut starts at an answer', () => {
    const messages = [say('user', 'x'.repeat(1_000)), say('assistant', 'short'), say('user', 'thanks')]
    const kept = newestMessagesWithin(messages, size(messages.slice(1)))!
    expect(kept.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: CUT_NOTE }] })
    expect(kept.messages.slice(1)).toEqual(messages.slice(1))
  })

  it('changes nothing when all fits, and gives up when not even the newest message does', () => {
    const messages = [say('user', 'hi'), say('assistant', 'hello')]
    expect(newestMessagesWithin(messages, size(messages))).toEqual({ messages, leftOut: 0 })
    expect(newestMessagesWithin(messages, 5)).toBeUndefined()
  })

  it('clears the oldest tool results first, never the newest message’s, and changes no message object', () => {
    const first = result('t1', 'a'.repeat(2_000))
    const messages = [
      say('user', 'go'),
      call('t1'),
      first,
      call('t2'),
      result('t2', 'b'.repeat(2_000)),
      call('t3'),
      result('t3', 'c'.repeat(2_000)),
    ]
    const copy = JSON.parse(JSON.stringify(messages)) as Anthropic.MessageParam[]
    expect(clearOldToolResults(messages, 1_000)).toBeGreaterThanOrEqual(1_000)
    const contents = messages.flatMap((m) =>
      typeof m.content === 'string'
        ? []
        : m.content.flatMap((b) => (b.type === 'tool_result' ? [b.content] : [])),
    )
    expect(contents).toEqual([CLEARED_RESULT, 'b'.repeat(2_000), 'c'.repeat(2_000)])
    expect(first).toEqual(copy[2]) // the caller's object is as it was
    // Asked for more than there is: all but the newest are cleared, and the next call frees nothing.
    clearOldToolResults(messages, 1_000_000)
    expect(clearOldToolResults(messages, 1_000_000)).toBe(0)
    expect(JSON.stringify(messages.at(-1))).toContain('c'.repeat(2_000))
  })
})
