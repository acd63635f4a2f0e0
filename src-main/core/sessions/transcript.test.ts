import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import {
  mainChain,
  parseTranscriptLines,
  readTranscriptMessages,
  toMessages,
  turnEndedAt,
} from './transcript.js'
import { TranscriptTail } from './transcript-tail.js'

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/transcripts/${name}`, import.meta.url)), 'utf8')

describe('Claude Code transcript reader', () => {
  const text = fixture('session-v2.jsonl')

  it('parses lines, reports the malformed one and keeps summaries', () => {
    const p = parseTranscriptLines(text)
    expect(p.malformedLines).toEqual([8])
    expect(p.summaries).toEqual([{ summary: 'Fix flaky checkout integration test', leafUuid: 'u-0012' }])
  })

  // Meta entries (command caveats, hook context) stay: the real client sends them to the model
  // (claude-code-fixtures.test.ts checks that against what each client version sent).
  it('follows the live chain: no sidechain, no abandoned branch; meta entries kept', () => {
    const { messages } = readTranscriptMessages(text)
    const all = JSON.stringify(messages)
    expect(all).not.toContain('docker compose." }]') // the subagent's own turn is not in the main chain…
    expect(all).not.toContain('msg_SC1')
    expect(all).not.toContain('abandoned answer')
    expect(messages[0]!.content[0]).toEqual({ type: 'text', text: '<command-name>/clear</command-name>' })
    expect(messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ])
  })

  it('joins an assistant message split over several lines and drops thinking blocks', () => {
    const { messages } = readTranscriptMessages(text)
    const first = messages[1]!
    expect(first.content.map((b) => b.type)).toEqual(['text', 'tool_use'])
    expect(first.uuid).toBe('u-0005')
  })

  it('keeps tool_use / tool_result pairs, including the subagent (Task) result', () => {
    const { messages } = readTranscriptMessages(text)
    const result = messages[4]!.content[0] as { type: string; tool_use_id: string }
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_02' })
    expect(messages[messages.length - 1]!.uuid).toBe('u-0012')
  })

  it('reads the sidechain when asked for it', () => {
    const side = toMessages(mainChain(parseTranscriptLines(text).entries, { sidechain: true }))
    expect(side.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('detects a turn that ended without tool_use', () => {
    expect(turnEndedAt(parseTranscriptLines(text).entries)).toBe('u-0012')
  })

  it('starts after the latest compaction and drops a tool_use still waiting for its result', () => {
    const c = fixture('session-compacted-midturn.jsonl')
    const { messages } = readTranscriptMessages(c)
    expect(JSON.stringify(messages)).not.toContain('old question')
    expect(messages).toHaveLength(1)
    expect(messages[0]!.role).toBe('user')
    expect(JSON.stringify(messages[0])).toContain('continued from a previous conversation')
    expect(JSON.stringify(messages[0])).toContain('rename the PaymentGateway')
    expect(turnEndedAt(parseTranscriptLines(c).entries)).toBeUndefined()
  })
})

describe('TranscriptTail', () => {
  it('reads only appended bytes and holds a partial last line', async () => {
    const path = writeFile(
      join(tempDir(), 's.jsonl'),
      '{"type":"user","uuid":"a","message":{"role":"user","content":"hi"}}\n{"type":"assi',
    )
    const tail = new TranscriptTail(path)
    expect((await tail.readNew()).map((e) => e.uuid)).toEqual(['a'])
    appendFileSync(
      path,
      'stant","uuid":"b","parentUuid":"a","message":{"role":"assistant","content":"yo"}}\n',
    )
    expect((await tail.readNew()).map((e) => e.uuid)).toEqual(['b'])
    expect(await tail.readNew()).toEqual([])
    expect(tail.malformedLines).toEqual([])
  })

  it('two reads at once (a debounced check beside an idle one) take each entry once', async () => {
    const path = writeFile(join(tempDir(), 's.jsonl'), fixture('session-v2.jsonl'))
    const tail = new TranscriptTail(path)
    const [first, second] = await Promise.all([tail.readNew(), tail.readNew()])
    const uuids = tail.entries.map((e) => e.uuid)
    expect(new Set(uuids).size).toBe(uuids.length)
    expect([...first, ...second].map((e) => e.uuid)).toEqual(uuids)
    expect(uuids.length).toBeGreaterThan(0)
  })
})
