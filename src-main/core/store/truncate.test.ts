import { describe, expect, it } from 'vitest'
import { MAX_ENTRYPOINT_BYTES, truncateEntrypointContent } from './truncate.js'

const lines = (n: number, width = 20) =>
  Array.from({ length: n }, (_, i) => `- [m${i}](m${i}.md) ${'x'.repeat(width)}`).join('\n')

describe('truncateEntrypointContent', () => {
  it('keeps exactly 200 lines untouched, with no warning', () => {
    const t = truncateEntrypointContent(lines(200))
    expect(t.wasLineTruncated).toBe(false)
    expect(t.warning).toBeUndefined()
    expect(t.content.split('\n')).toHaveLength(200)
  })

  it('cuts line 201 and names the line count', () => {
    const t = truncateEntrypointContent(lines(201))
    expect(t.wasLineTruncated).toBe(true)
    expect(t.wasByteTruncated).toBe(false)
    expect(t.keptLines).toBe(200)
    expect(t.content).not.toContain('[m200]')
    expect(t.warning).toMatch(
      /^WARNING: MEMORY\.md is 201 lines \(limit: 200\)\. Only part of it was loaded\./,
    )
  })

  const exactBytes = (total: number) => {
    // 10 lines whose trimmed size is exactly `total` bytes
    const per = Math.floor((total - 9) / 10)
    const body = Array.from({ length: 10 }, () => 'y'.repeat(per))
    body[9] = 'y'.repeat(total - 9 - per * 9)
    return body.join('\n')
  }

  it('keeps exactly 25,000 bytes untouched', () => {
    const raw = exactBytes(MAX_ENTRYPOINT_BYTES)
    expect(Buffer.byteLength(raw)).toBe(25_000)
    const t = truncateEntrypointContent(raw)
    expect(t.wasByteTruncated).toBe(false)
    expect(t.content).toBe(raw)
  })

  it('cuts 25,001 bytes at the last newline and gives the byte reason with sizes', () => {
    const raw = exactBytes(MAX_ENTRYPOINT_BYTES + 1)
    const t = truncateEntrypointContent(raw)
    expect(t.wasByteTruncated).toBe(true)
    expect(t.wasLineTruncated).toBe(false)
    const kept = t.content.split('\n\n> WARNING')[0] as string
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(25_000)
    expect(raw.startsWith(kept + '\n')).toBe(true)
    expect(t.keptLines).toBe(9)
    expect(t.warning).toContain('MEMORY.md is 24.4KB (limit: 24.4KB) — index entries are too long')
    expect(t.warning).toContain('move detail into topic files')
  })

  it('names both reasons when both limits are exceeded', () => {
    const raw = lines(300, 200)
    const t = truncateEntrypointContent(raw)
    expect(t.wasLineTruncated && t.wasByteTruncated).toBe(true)
    expect(t.warning).toContain(`300 lines and `)
    expect(Buffer.byteLength(t.content.split('\n\n> WARNING')[0] as string)).toBeLessThanOrEqual(25_000)
  })

  it('trims surrounding whitespace first', () => {
    expect(truncateEntrypointContent('\n\n  - [a](a.md)\n\n').content).toBe('- [a](a.md)')
  })

  it('never splits a multi-byte character when one line is over the limit', () => {
    const t = truncateEntrypointContent('é'.repeat(20_000))
    expect(t.content).not.toContain('\uFFFD')
  })
})
