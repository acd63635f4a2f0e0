import { describe, expect, it } from 'vitest'
import type { MemoryHeader } from './memory-header.js'
import { packHeaders, unpackHeaders } from './packed-headers.js'

const pathOf = (f: string) => `/mem/${f}`

describe('packed headers', () => {
  it('round-trips every field, absent ones, missing headers and any characters', () => {
    const headers: (MemoryHeader | null)[] = [
      {
        filename: 'team/ünïcode 🚀.md',
        filePath: '/mem/team/ünïcode 🚀.md',
        mtimeMs: 1767225600123.456,
        size: 4096,
        name: 'Deploy — ☃',
        description: 'has\u0000a NUL and "quotes"',
        type: 'project',
        format: 'nested',
      },
      null,
      { filename: 'bare.md', filePath: '/mem/bare.md', mtimeMs: 0, description: null },
      {
        filename: 'empty.md',
        filePath: '/mem/empty.md',
        mtimeMs: 5,
        name: '',
        description: '',
        type: 'user',
      },
    ]
    const packed = structuredClone(packHeaders(headers))
    expect(unpackHeaders(packed, pathOf)).toEqual(headers)
    const bare = unpackHeaders(packed, pathOf)[2]
    expect(bare?.name).toBeUndefined()
    expect(bare?.type).toBeUndefined()
    expect(bare?.description).toBeNull()
  })

  it('packs no headers to an empty batch', () => {
    expect(unpackHeaders(packHeaders([]), pathOf)).toEqual([])
  })
})
