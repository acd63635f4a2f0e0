import { appendFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SCENARIO_TEXT } from '../../../test/fake-anthropic/claude-code-scenario.js'
import { firstTurn } from '../../../test/helpers/transcript-fixtures.js'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { SessionWatcher, type TurnEndedEvent } from './session-watcher.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const watchers: SessionWatcher[] = []
afterEach(async () => {
  while (watchers.length) await watchers.pop()!.close()
})

/**
 * The watcher's idle waits, started by it and fired by the test: "the session has been quiet long
 * enough" is an event here, not a measured delay.
 */
function manualIdleClock() {
  const waits: { fire: () => void; cancelled: boolean; afterWriting: boolean }[] = []
  let writing = true
  return {
    start: (fire: () => void) => {
      const wait = { fire, cancelled: false, afterWriting: !writing }
      waits.push(wait)
      return () => void (wait.cancelled = true)
    },
    doneWriting: () => void (writing = false),
    pending: () => waits.filter((w) => !w.cancelled),
    armedMidTurn: () => waits.filter((w) => !w.afterWriting).length,
  }
}

/**
 * Appends a real session line by line, the text block of a message well before its tool_use block
 * (longer than the debounce), and resolves once the watcher has judged the last line: it either
 * ended the turn or is waiting for the session to go quiet.
 */
async function replay(lines: string[], opts: { lateToolUseMs: number }) {
  const dir = tempDir()
  const clock = manualIdleClock()
  const events: TurnEndedEvent[] = []
  const w = new SessionWatcher(dir, {
    debounceMs: 40,
    idleTimer: clock.start,
    onTurnEnded: (e) => events.push(e),
  })
  watchers.push(w)
  await w.start()
  const file = join(dir, '0b5e7e3c-0000-4000-8000-000000000001.jsonl')
  writeFileSync(file, '')
  for (const line of lines) {
    appendFileSync(file, line + '\n')
    await sleep(line.includes(SCENARIO_TEXT.firstLook) ? opts.lateToolUseMs : 15)
  }
  clock.doneWriting()
  // The file watcher's last event comes when the machine gets to it: under the full suite's load,
  // later than waitFor's default second.
  await vi.waitFor(
    () => expect(events.length + clock.pending().filter((p) => p.afterWriting).length).toBeGreaterThan(0),
    { timeout: 10_000 },
  )
  return { events, clock }
}

describe('SessionWatcher on a real client writing with delays', () => {
  it.each(['2.1.34', '2.1.88', '2.1.332', '2.0.77', '1.0.128'])(
    '%s: one turn end, after the final answer, never after a text block awaiting its tool_use',
    async (version) => {
      const lines = firstTurn(version)
      const { events, clock } = await replay(lines, { lateToolUseMs: 250 })
      // Every idle wait armed by a text block was cancelled by its tool_use block arriving.
      expect(clock.pending().filter((p) => !p.afterWriting)).toEqual([])
      for (const p of clock.pending()) p.fire()
      await vi.waitFor(() => expect(events).toHaveLength(1))
      const last = events[0]!.messages[events[0]!.messages.length - 1]!
      expect(JSON.stringify(last.content)).toContain(SCENARIO_TEXT.done)
      expect(events[0]!.messages.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
      ])
    },
  )

  it('a client that writes no stop reason and no turn summary: the turn ends once the session is idle', async () => {
    const lines = firstTurn('2.1.34').filter((l) => !l.includes('stop_hook_summary'))
    const { events, clock } = await replay(lines, { lateToolUseMs: 300 })
    // Until the session has been quiet, the final answer without a stop reason ends nothing.
    expect(events).toHaveLength(0)
    const pending = clock.pending()
    expect(pending).toHaveLength(1)
    expect(pending[0]!.afterWriting).toBe(true)
    pending[0]!.fire()
    await vi.waitFor(() => expect(events).toHaveLength(1))
    expect(JSON.stringify(events[0]!.messages.at(-1)!.content)).toContain(SCENARIO_TEXT.done)
  })
})

describe('SessionWatcher at start', () => {
  async function started(files: { name: string; lines: string[]; ageMs: number }[]) {
    const dir = tempDir()
    for (const f of files) {
      const path = join(dir, f.name)
      writeFileSync(path, f.lines.join('\n') + '\n')
      const at = (Date.now() - f.ageMs) / 1000
      utimesSync(path, at, at)
    }
    const events: TurnEndedEvent[] = []
    const w = new SessionWatcher(dir, { debounceMs: 40, onTurnEnded: (e) => events.push(e) })
    watchers.push(w)
    await w.start()
    return events
  }

  it('a session whose turn ended just before start is followed as new: its turn ends once', async () => {
    const events = await started([
      { name: '0b5e7e3c-0000-4000-8000-00000000000a.jsonl', lines: firstTurn('2.1.332'), ageMs: 2_000 },
    ])
    await vi.waitFor(() => expect(events).toHaveLength(1))
    expect(JSON.stringify(events[0]!.messages.at(-1)!.content)).toContain(SCENARIO_TEXT.done)
  })

  it('an older session counts as seen: nothing ends until it grows', async () => {
    const file = '0b5e7e3c-0000-4000-8000-00000000000b.jsonl'
    const events = await started([{ name: file, lines: firstTurn('2.1.332'), ageMs: 60 * 60_000 }])
    // Nothing is pending: the watcher primed it without scheduling anything.
    expect(events).toHaveLength(0)
    await sleep(200)
    expect(events).toHaveLength(0)
  })
})
