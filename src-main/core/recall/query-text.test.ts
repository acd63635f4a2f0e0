import { describe, expect, it } from 'vitest'
import { loneSurrogate } from '../../../src-shared/unicode.js'
import { MAX_RECALL_QUERY_CHARS, recallQueryText } from './query-text.js'

describe('recallQueryText', () => {
  it('keeps a prompt of ordinary length as it is', () => {
    const prompt = 'why does the staging deploy fail? '.repeat(100).slice(0, MAX_RECALL_QUERY_CHARS)
    expect(recallQueryText(prompt)).toBe(prompt)
  })

  it('reads a pasted log by its head and tail, cut between words', () => {
    const paste = Array.from({ length: 200_000 }, (_, i) => `line${i}`).join(' ')
    const q = recallQueryText(`Here is the build log: ${paste} why does the kafka consumer stall?`)
    expect(q.length).toBeLessThanOrEqual(MAX_RECALL_QUERY_CHARS + 3)
    expect(q.startsWith('Here is the build log: line0 line1')).toBe(true)
    expect(q.endsWith('why does the kafka consumer stall?')).toBe(true)
    expect(q).toContain(' … ')
    expect(q).not.toContain('line100000')
    // No word is cut in two at either end of the gap.
    const [head, tail] = q.split(' … ') as [string, string]
    expect(head).toMatch(/ line\d+$/)
    expect(paste.includes(head.slice(head.lastIndexOf(' ') + 1) + ' ')).toBe(true)
    expect(tail).toMatch(/^line\d+ /)
  })

  it('never splits a character outside the basic plane, even with no space to cut at', () => {
    const q = recallQueryText('🦀'.repeat(5000))
    expect(loneSurrogate(q)).toBeUndefined()
  })
})
