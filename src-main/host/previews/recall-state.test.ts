import { existsSync, readdirSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { loadRecallState, pruneRecallStates, saveRecallState } from './recall-state.js'

const DAY = 24 * 60 * 60 * 1000

function sessionFile(dir: string, name: string, ageMs: number, now: number): string {
  const p = writeFile(join(dir, `${name}.json`), '{"surfaced":[],"injectedBytes":0}')
  utimesSync(p, (now - ageMs) / 1000, (now - ageMs) / 1000)
  return p
}

describe('recall state per session', () => {
  it('keeps each session apart, whatever its id: a path, a look-alike, or one longer than a file name', async () => {
    const dir = tempDir()
    const long = 'x'.repeat(300)
    const ids = [
      'a/b',
      'a_b',
      '../../etc/passwd',
      `${long}1`,
      `${long}2`,
      '550e8400-e29b-41d4-a716-446655440000',
    ]
    ids.forEach((id, i) => saveRecallState(dir, id, { surfaced: [`/m/${i}.md`], injectedBytes: i }))
    for (const [i, id] of ids.entries())
      expect(await loadRecallState(dir, id)).toMatchObject({
        surfaced: [`/m/${i}.md`],
        injectedBytes: i,
        fresh: false,
      })
    // Every file stays in the state dir, named within a file name's limit.
    const files = readdirSync(dir)
    expect(files).toHaveLength(ids.length)
    expect(files).toContain('550e8400-e29b-41d4-a716-446655440000.json')
    for (const f of files) expect(Buffer.byteLength(f)).toBeLessThanOrEqual(255)
  })
})

describe('recall state pruning', () => {
  it('drops sessions untouched for a week, looking at most once a day', async () => {
    const dir = tempDir()
    const now = Date.now()
    const old = sessionFile(dir, 'old', 8 * DAY, now)
    const recent = sessionFile(dir, 'recent', 2 * DAY, now)
    await pruneRecallStates(dir, now)
    expect([existsSync(old), existsSync(recent)]).toEqual([false, true])

    // Within the day: not looked at again, so a stale file stays for now…
    const later = sessionFile(dir, 'later', 9 * DAY, now)
    await pruneRecallStates(dir, now + DAY / 2)
    expect(existsSync(later)).toBe(true)
    // …and goes on the next day's look, with the recent one still kept.
    await pruneRecallStates(dir, now + DAY + 1)
    expect([existsSync(later), existsSync(recent)]).toEqual([false, true])
  })

  it('is a no-op without a state dir', async () => {
    await expect(pruneRecallStates(join(tempDir(), 'none'))).resolves.toBeUndefined()
  })
})
