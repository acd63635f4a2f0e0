import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_FILE_NAME_BYTES, siblingPath } from './sibling-name.js'

describe('siblingPath', () => {
  it('is .<name><suffix> while it fits, and a name of its own within 255 bytes for each file past that', () => {
    expect(siblingPath(join('/m', 'deploy.md'), '.lock')).toBe(join('/m', '.deploy.md.lock'))
    const a = siblingPath(join('/m', 'a'.repeat(248) + 'x.md'), '.lock')
    const b = siblingPath(join('/m', 'a'.repeat(248) + 'y.md'), '.lock')
    const c = siblingPath(join('/m', 'é'.repeat(126) + '.md'), '.123.abc.tmp')
    for (const p of [a, b, c]) expect(Buffer.byteLength(basename(p))).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES)
    expect(a).not.toBe(b)
    expect(basename(a)).toMatch(/^\.a+~[0-9a-f]{16}\.lock$/)
    // Cut between characters, never inside one.
    expect(basename(c)).toMatch(/^\.é+~[0-9a-f]{16}\.123\.abc\.tmp$/)
  })
})
