import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandbox, tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../paths/auto-mem-path.js'
import { loadMemoryPrompt } from '../prompt/load.js'
import { HealthChecker } from '../health/health-checker.js'
import { createMemory, deleteMemory } from './memory-files.js'

const memo = '---\nname: A\ndescription: probe a\ntype: project\n---\n\nbody\n'

/** A memory dir whose MEMORY.md is a directory (someone's mkdir, a sync tool's conflict folder). */
function dirIndex() {
  const dir = tempDir()
  writeFile(join(dir, 'a.md'), memo)
  mkdirSync(join(dir, 'MEMORY.md'))
  return dir
}

describe('a MEMORY.md that is not a file', () => {
  it('refuses a new memory before writing it, saying what is wrong; nothing is left without a pointer', async () => {
    const dir = dirIndex()
    await expect(
      createMemory(dir, { name: 'B note', description: 'b', type: 'project', body: 'hello' }),
    ).rejects.toMatchObject({
      code: 'INVALID_PATH',
      message: expect.stringContaining('MEMORY.md is a directory, not a file'),
    })
    expect(readdirSync(dir).sort()).toEqual(['MEMORY.md', 'a.md'])
    // Deleting a memory has no pointer to remove there: the memory goes, the directory stays as it was.
    await deleteMemory(dir, 'a.md')
    expect(readdirSync(dir)).toEqual(['MEMORY.md'])
    expect(readdirSync(join(dir, 'MEMORY.md'))).toEqual([])
  })

  it('is loaded into the prompt as a missing index is, as Claude Code loads it', async () => {
    const sb = sandbox()
    clearAutoMemPathCache()
    const ctx = sb.ctx()
    const dir = getAutoMemPath(ctx)
    writeFile(join(dir, 'a.md'), memo)
    const missing = await loadMemoryPrompt(ctx)
    mkdirSync(join(dir, 'MEMORY.md'))
    const asDir = await loadMemoryPrompt(ctx)
    expect(asDir).toEqual(missing)
  })

  it('is one error in Health, not a "not in MEMORY.md" finding per memory with a fix that cannot work', async () => {
    const dir = dirIndex()
    const report = await new HealthChecker({ memoryDir: dir }).check()
    expect(report.findings.map((f) => [f.kind, f.severity, f.path, f.fixes])).toEqual([
      ['index-not-file', 'error', 'MEMORY.md', []],
    ])
    expect(existsSync(join(dir, 'a.md'))).toBe(true)
  })
})
