import { describe, expect, it } from 'vitest'
import { describeWait, retryAfterMs } from './retry-after.js'

describe('retryAfterMs', () => {
  const now = Date.UTC(2026, 11, 6, 8, 0, 0)
  it('reads delay-seconds and HTTP dates; a past date is no wait', () => {
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs(' 0 ', now)).toBe(0)
    expect(retryAfterMs('Sun, 06 Dec 2026 08:05:00 GMT', now)).toBe(300_000)
    expect(retryAfterMs('Sun, 06 Dec 2026 07:00:00 GMT', now)).toBe(0)
  })
  it('ignores what it cannot read rather than guessing', () => {
    for (const v of [null, undefined, '', 'soon', '-5', '1.5', '1e3', 'Sunday'])
      expect(retryAfterMs(v, now)).toBeUndefined()
  })
  it('says a wait in the unit a person would', () => {
    expect(describeWait(1500)).toBe('2 s')
    expect(describeWait(300_000)).toBe('5 min')
    expect(describeWait(5 * 3600_000)).toBe('5 h')
  })
})
