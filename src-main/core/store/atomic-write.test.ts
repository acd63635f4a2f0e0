import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { ConflictError, sha256Hex, writeFileAtomic, writeFileIfUnchanged } from './atomic-write.js'
import { ensureMemoryDirExists } from './ensure-dir.js'

describe('atomic writes', () => {
  it('replaces the file and leaves no temp file behind', async () => {
    const dir = tempDir()
    const p = writeFile(join(dir, 'a.md'), 'old')
    await writeFileAtomic(p, 'new')
    expect(readFileSync(p, 'utf8')).toBe('new')
    expect(readdirSync(dir)).toEqual(['a.md'])
  })

  it('writeFileIfUnchanged refuses a stale hash and a create over an existing file', async () => {
    const dir = tempDir()
    const p = writeFile(join(dir, 'a.md'), 'v1')
    await expect(writeFileIfUnchanged(p, 'v2', sha256Hex('v0'))).rejects.toBeInstanceOf(ConflictError)
    await expect(writeFileIfUnchanged(p, 'v2', null)).rejects.toBeInstanceOf(ConflictError)
    expect(readFileSync(p, 'utf8')).toBe('v1')
    await writeFileIfUnchanged(p, 'v2', sha256Hex('v1'))
    expect(readFileSync(p, 'utf8')).toBe('v2')
    expect(readdirSync(dir)).toEqual(['a.md'])
  })
})

describe('ensureMemoryDirExists', () => {
  it('creates the whole chain and is idempotent', async () => {
    const dir = join(tempDir(), 'a', 'b', 'memory')
    expect(await ensureMemoryDirExists(dir)).toBe(true)
    expect(await ensureMemoryDirExists(dir)).toBe(true)
  })

  it('logs instead of throwing when it cannot create the dir', async () => {
    const file = writeFile(join(tempDir(), 'file'), 'x')
    const logs: string[] = []
    expect(await ensureMemoryDirExists(join(file, 'memory'), (m) => logs.push(m))).toBe(false)
    expect(logs).toHaveLength(1)
  })
})
