import { describe, expect, it } from 'vitest'
import { ago, count, grouped, isOne, span } from './words.js'

describe('words', () => {
  it('counts with the plural English takes, never "(s)"', () => {
    expect(count(0, 'file')).toBe('0 files')
    expect(count(1, 'file')).toBe('1 file')
    expect(count(2, 'file')).toBe('2 files')
    expect(count(1200, 'memory', 'memories')).toBe('1,200 memories')
    expect([0, 1, 2, 1.5].map(isOne)).toEqual([false, true, false, false])
    // Grouped as Intl groups it, whatever the size or sign.
    for (const n of [
      0,
      7,
      999,
      1000,
      12_345,
      999_999,
      1_000_000,
      -4_321,
      9_007_199_254_740_991,
      1.5,
      2 ** 60,
    ])
      expect(grouped(n)).toBe(n.toLocaleString('en'))
    expect(count(1, 'memory', 'memories')).toBe('1 memory')
  })

  it('says how long ago in words', () => {
    expect(ago(10_000)).toBe('now')
    expect(ago(3 * 60_000)).toBe('3 minutes ago')
    expect(ago(60 * 60_000)).toBe('1 hour ago')
    expect(ago(5 * 3_600_000)).toBe('5 hours ago')
    expect(ago(26 * 3_600_000)).toBe('yesterday')
    expect(ago(3 * 86_400_000)).toBe('3 days ago')
  })

  it('says a span as people do', () => {
    expect(span(24 * 3_600_000)).toBe('24 hours')
    expect(span(90 * 60_000)).toBe('90 minutes')
    expect(span(60_000)).toBe('1 minute')
    expect(span(72 * 3_600_000)).toBe('3 days')
  })
})
