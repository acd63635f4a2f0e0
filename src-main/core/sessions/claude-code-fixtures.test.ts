import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SCENARIO_TEXT } from '../../../test/fake-anthropic/claude-code-scenario.js'
import { normalizeMessages, type NormalMessage } from '../../../test/fixtures/transcripts/normalize.js'
import { TRANSCRIPT_FIXTURES as ROOT, transcriptFixtures } from '../../../test/helpers/transcript-fixtures.js'
import {
  mainChain,
  parseTranscriptLines,
  toMessages,
  turnEndedAt,
  turnState,
  type TranscriptEntry,
} from './transcript.js'

/**
 * Transcripts written by the real Claude Code client (test/fixtures/transcripts/generate.ts), checked
 * against what that client itself sent the model at each step: the reader must rebuild exactly the
 * conversation Claude Code rebuilt.
 */
const fixtures = transcriptFixtures()

const readMessages = (entries: readonly TranscriptEntry[], sidechain = false) =>
  normalizeMessages(toMessages(mainChain(entries, { sidechain })))

/** Where a normalised block was written: the first line from `from` holding that result, text or call. */
function lineOf(lines: string[], block: NormalMessage['blocks'][number], from: number): number {
  const needle =
    'tool_result' in block
      ? `"tool_use_id":"${block.tool_result}"`
      : 'tool_use' in block
        ? `"id":"${block.tool_use}"`
        : 'text' in block
          ? JSON.stringify(block.text).slice(1, 60)
          : ''
  const i = lines.slice(from).findIndex((l) => /"type":"(user|assistant)"/.test(l) && l.includes(needle))
  return i < 0 ? -1 : from + i
}

/**
 * The transcript as it stood when the client sent a request: up to the entry holding the request's
 * last message, plus the non-message entries (hooks, progress) written before the next message.
 */
function prefixBefore(lines: string[], messages: NormalMessage[]): TranscriptEntry[] {
  // Texts repeat (hook context on every prompt): look for each message after the previous one.
  let from = 0
  let at = -1
  for (const m of messages) {
    let prev = from
    const found = m.blocks.map((b) => {
      // Parallel results may be written out of order; a compaction's preserved messages lie before it.
      const line = [prev, from, 0].map((start) => lineOf(lines, b, start)).find((l) => l >= 0) ?? -1
      if (line >= 0) prev = line
      return line
    })
    at = found.includes(-1) ? -1 : Math.max(...found)
    if (at < 0) break
    from = Math.min(...found)
  }
  expect(at, `request's last message is in the transcript`).toBeGreaterThanOrEqual(0)
  let end = at + 1
  while (end < lines.length && !/"type":"(user|assistant)"/.test(lines[end]!)) end++
  return parseTranscriptLines(lines.slice(0, end).join('\n')).entries
}

describe.each(fixtures)('$dir: the chain Claude Code sent', ({ dir, manifest }) => {
  const file = join(ROOT, dir, 'project', `${manifest.sessionId}.jsonl`)
  const text = readFileSync(file, 'utf8')
  const lines = text.split('\n').filter(Boolean)
  const entries = parseTranscriptLines(text).entries

  it.each(manifest.checkpoints.map((c) => [`${c.scenario} step ${c.step}`, c] as const))(
    'at %s: the reader rebuilds exactly the messages of the next request',
    (_name, cp) => {
      expect(readMessages(prefixBefore(lines, cp.messages))).toEqual(cp.messages)
    },
  )

  it('over the whole file: the last request plus the final answer, and the turn is over', () => {
    const last = manifest.checkpoints[manifest.checkpoints.length - 1]!
    expect(last.scenario).toBe('again')
    expect(readMessages(entries)).toEqual([
      ...last.messages,
      { role: 'assistant', blocks: [{ text: SCENARIO_TEXT.again }] },
    ])
    const final = toMessages(mainChain(entries)).pop()!
    // Clients that write no stop reason (2.1.3x) end the turn once the session is idle.
    expect(turnEndedAt(entries, { idle: true })).toBe(final.uuid)
    expect(turnState(entries).state).not.toBe('open')
  })

  it('a text block written before its tool_use block never ends the turn', () => {
    const at = lines.findIndex((l) => l.includes(SCENARIO_TEXT.firstLook) && l.includes('"type":"assistant"'))
    const early = parseTranscriptLines(lines.slice(0, at + 1).join('\n')).entries
    expect(turnEndedAt(early)).toBeUndefined()
    const withCall = parseTranscriptLines(lines.slice(0, at + 2).join('\n')).entries
    expect(turnState(withCall).state).toBe('open')
  })

  it('keeps both halves of the parallel tool call and both results', () => {
    const withReads = manifest.checkpoints.find((c) => c.scenario === 'tools' && c.step === 2)!
    const messages = readMessages(prefixBefore(lines, withReads.messages))
    const reads = messages.flatMap((m) => m.blocks).filter((b) => 'tool_use' in b && b.name === 'Read')
    const results = messages.flatMap((m) => m.blocks).filter((b) => 'tool_result' in b)
    expect(reads).toHaveLength(2)
    expect(results).toHaveLength(3) // Bash + both Reads
  })

  it('the subagent: its own transcript (or sidechain) holds its conversation, the main chain does not', () => {
    const sub = manifest.subagent[manifest.subagent.length - 1]!
    // 1.0.x keeps sidechains in the session file, 2.0.x in agent-*.jsonl, 2.1.x under <session>/subagents/.
    const subFiles = readdirSync(join(ROOT, dir, 'project'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => parseTranscriptLines(readFileSync(join(ROOT, dir, 'project', f), 'utf8')).entries)
      .filter((es) =>
        es.some(
          (e) => e.isSidechain && e.type === 'user' && JSON.stringify(e.message).includes('[scenario:sub]'),
        ),
      )
    expect(subFiles.length).toBeGreaterThan(0)
    const subEntries = subFiles[0]!
    expect(readMessages(subEntries, true)).toEqual([
      ...sub.messages,
      { role: 'assistant', blocks: [{ text: SCENARIO_TEXT.subDone }] },
    ])
    expect(JSON.stringify(readMessages(entries))).not.toContain('[scenario:sub]')
  })
})
