import { describe, expect, it } from 'vitest'
import { formatBytes } from './limits.js'

describe('formatBytes', () => {
  it('says sizes in words: one byte, grouped digits, then KiB and MiB', () => {
    expect(formatBytes(1)).toBe('1 byte')
    expect(formatBytes(1023)).toBe('1,023 bytes')
    expect(formatBytes(1536)).toBe('1.5 KiB')
    expect(formatBytes(1024 * 1024)).toBe('1.0 MiB')
  })
})
