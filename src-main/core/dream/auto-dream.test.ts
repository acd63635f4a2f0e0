import { readdirSync, readFileSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dreamSetup as setup, setDreamLock as setLock } from '../../../test/helpers/dream.js'
import { tempDir } from '../../../test/helpers/temp-env.js'

import { lockPath, tryAcquireConsolidationLock } from './lock.js'

const HOUR = 3_600_000

describe('autoDream gates, each on its own', () => {
  it('disabled', async () => {
    const { dream } = setup(undefined, { enabled: () => ({ ok: false, reason: 'auto memory is off' }) })
    expect(await dream.executeAutoDream()).toMatchObject({ gate: 'disabled', reason: 'auto memory is off' })
  })

  it('too soon since the last consolidation', async () => {
    const { dream, memoryDir } = setup(undefined)
    setLock(memoryDir, 999_999_999, 2 * HOUR)
    expect(await dream.executeAutoDream()).toMatchObject({ gate: 'too_soon' })
  })

  it('not enough sessions, then the scan throttle on the next check', async () => {
    const { dream } = setup(undefined, {}, 4)
    expect(await dream.executeAutoDream()).toMatchObject({
      gate: 'not_enough_sessions',
      reason: expect.stringContaining('4 sessions'),
    })
    expect(await dream.executeAutoDream()).toMatchObject({ gate: 'scan_throttled' })
  })

  it('one session since the last consolidation is "1 session"', async () => {
    const { dream } = setup(undefined, {}, 1)
    const r = await dream.executeAutoDream()
    expect(r).toMatchObject({ gate: 'not_enough_sessions' })
    expect((r as { reason: string }).reason).toMatch(/^1 session since the last consolidation/)
  })

  it('sessions touched before the last consolidation do not count', async () => {
    const { dream, memoryDir, transcriptDir } = setup(undefined, { minHours: 1 })
    for (const f of readdirSync(transcriptDir))
      utimesSync(join(transcriptDir, f), (Date.now() - 30 * HOUR) / 1000, (Date.now() - 30 * HOUR) / 1000)
    setLock(memoryDir, 999_999_999, 25 * HOUR)
    expect(await dream.executeAutoDream()).toMatchObject({
      gate: 'not_enough_sessions',
      reason: expect.stringContaining('0 sessions'),
    })
  })

  it('needs a model', async () => {
    const { dream } = setup(undefined)
    expect(await dream.executeAutoDream()).toMatchObject({ gate: 'needs_model' })
  })
})

describe('consolidation lock', () => {
  it('reclaims a lock left by a dead pid, and one older than an hour', async () => {
    const dir = tempDir()
    setLock(dir, 999_999_999, 5 * 60_000) // fresh but its holder is gone
    expect(await tryAcquireConsolidationLock(dir)).toMatchObject({ acquired: true })
    expect(readFileSync(lockPath(dir), 'utf8').trim()).toBe(String(process.pid))
    setLock(dir, 4242, 2 * HOUR)
    expect(await tryAcquireConsolidationLock(dir, { isAlive: () => true })).toMatchObject({ acquired: true })
  })
})
