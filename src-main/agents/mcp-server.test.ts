import { describe, expect, it } from 'vitest'
import type { MemoryDoc } from '../../src-shared/types.js'
import { LIST_PAGE_CHARS, readPage } from './mcp-server.js'

const docWith = (body: string): MemoryDoc => ({
  relPath: 'long.md',
  name: 'Long',
  description: 'a long one',
  type: 'reference',
  scope: 'private',
  mtimeMs: 0,
  age: 'today',
  ageDays: 0,
  body,
  raw: body,
  hash: 'a'.repeat(64),
})

/** Every page of `body` from the start, as an agent following next_offset reads them. */
function pages(body: string): { text: string; body: string }[] {
  const out: { text: string; body: string }[] = []
  for (let offset: number | undefined = 0; offset !== undefined;) {
    const { answer } = readPage(docWith(body), offset)
    out.push({ text: JSON.stringify(answer, null, 2), body: answer.body as string })
    offset = answer.next_offset as number | undefined
  }
  return out
}

describe('memory_read pages', () => {
  it('cut inside a line longer than a page, never between the halves of a surrogate pair', () => {
    const body = '😀'.repeat(20_000) // one 40,000-character line
    const read = pages(body)
    expect(read.length).toBeGreaterThan(1)
    for (const p of read) {
      expect(p.text.length).toBeLessThanOrEqual(LIST_PAGE_CHARS)
      expect(p.body).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/)
    }
    expect(read.map((p) => p.body).join('')).toBe(body)
  })

  it('keep each answer within a page when the text is mostly escapes', () => {
    const body = '"\\\t\n'.repeat(8_000)
    const read = pages(body)
    for (const p of read) expect(p.text.length).toBeLessThanOrEqual(LIST_PAGE_CHARS)
    expect(read.map((p) => p.body).join('')).toBe(body)
  })
})
