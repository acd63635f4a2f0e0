import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { SCENARIO_TEXT } from '../../../test/fake-anthropic/claude-code-scenario.js'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { SessionWatcher, type TurnEndedEvent } from './session-watcher.js'

const ROOT = fileURLToPath(new URL('../../../test/fixtures/transcripts/', import.meta.url))

/** The first turn of a real session (up to its final answer and what follows it), as lines. */
function firstTurn(version: string): string[] {
  const dir = join(ROOT, `claude-code-${version}`)
  const { sessionId } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sessionId: string }
  const lines = readFileSync(join(dir, 'project', `${sessionId}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
  const done = lines.findIndex((l) => l.includes(SCENARIO_TEXT.done))
  let end = done + 1
  while (end < lines.length && !/"type":"(user|assistant)"/.test(lines[end]!)) end++
  return lines.slice(0, end)
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const watchers: SessionWatcher[] = []
afterEach(async () => {
  while (watchers.length) await watchers.pop()!.close()
})

async function replay(lines: string[], opts: { idleMs: number; lateToolUseMs: number }) {
  const dir = tempDir()
  const events: { at: number; e: TurnEndedEvent }[] = []
  const w = new SessionWatcher(dir, {
    debounceMs: 40,
    idleMs: opts.idleMs,
    onTurnEnded: (e) => events.push({ at: Date.now(), e }),
  })
  watchers.push(w)
  await w.start()
  const file = join(dir, '0b5e7e3c-0000-4000-8000-000000000001.jsonl')
  writeFileSync(file, '')
  for (const line of lines) {
    appendFileSync(file, line + '\n')
    // The text block of a message is written well before its tool_use block (longer than the debounce).
    await sleep(line.includes(SCENARIO_TEXT.firstLook) ? opts.lateToolUseMs : 15)
  }
  return { events, finishedAt: Date.now() }
}

describe('SessionWatcher on a real client writing with delays', () => {
  it.each(['2.1.34', '2.1.88', '2.1.332', '2.0.77', '1.0.128'])(
    '%s: one turn end, after the final answer, never after a text block awaiting its tool_use',
    async (version) => {
      const lines = firstTurn(version)
      const { events } = await replay(lines, { idleMs: 600, lateToolUseMs: 250 })
      await sleep(900)
      expect(events).toHaveLength(1)
      const last = events[0]!.e.messages[events[0]!.e.messages.length - 1]!
      expect(JSON.stringify(last.content)).toContain(SCENARIO_TEXT.done)
      expect(events[0]!.e.messages.map((m) => m.role)).toEqual([
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
    const { events, finishedAt } = await replay(lines, { idleMs: 500, lateToolUseMs: 300 })
    await sleep(200)
    expect(events).toHaveLength(0) // quiet for less than idleMs
    await sleep(700)
    expect(events).toHaveLength(1)
    expect(events[0]!.at - finishedAt).toBeGreaterThanOrEqual(450)
  })
})
