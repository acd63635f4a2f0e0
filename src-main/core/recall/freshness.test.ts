import { describe, expect, it } from 'vitest'
import { memoryAge, memoryAgeDays, memoryFreshnessNote, memoryFreshnessText } from './freshness.js'

const now = Date.UTC(2026, 11, 2, 12)
const DAY = 86_400_000

describe('memory freshness', () => {
  it('floors whole days and clamps the future to 0', () => {
    expect(memoryAgeDays(now - 1000, now)).toBe(0)
    expect(memoryAgeDays(now - DAY - 1, now)).toBe(1)
    expect(memoryAgeDays(now - 47.9 * DAY, now)).toBe(47)
    expect(memoryAgeDays(now + 5 * DAY, now)).toBe(0)
  })

  it('says today, yesterday, N days ago', () => {
    expect(memoryAge(now, now)).toBe('today')
    expect(memoryAge(now - DAY, now)).toBe('yesterday')
    expect(memoryAge(now - 47 * DAY, now)).toBe('47 days ago')
  })

  it('warns only past one day, and the note wraps it in system-reminder', () => {
    expect(memoryFreshnessText(now - DAY, now)).toBe('')
    expect(memoryFreshnessNote(now - DAY, now)).toBe('')
    const text = memoryFreshnessText(now - 3 * DAY, now)
    expect(text).toMatch(/^This memory is 3 days old\. Memories are point-in-time observations/)
    expect(text).toContain('file:line citations')
    expect(memoryFreshnessNote(now - 3 * DAY, now)).toBe(`<system-reminder>${text}</system-reminder>\n`)
  })
})
