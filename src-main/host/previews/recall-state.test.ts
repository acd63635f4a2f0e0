import { existsSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { pruneRecallStates } from './recall-state.js'

const DAY = 24 * 60 * 60 * 1000

function sessionFile(dir: string, name: string, ageMs: number, now: number): string {
  const p = writeFile(join(dir, `${name}.json`), '{"surfaced":[],"injectedBytes":0}')
  utimesSync(p, (now - ageMs) / 1000, (now - ageMs) / 1000)
  return p
}

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
