import { rmSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { MemoryIndex } from './memory-index.js'
import { scanMemoryFiles } from './scan.js'
import { lateScanner } from '../../../test/helpers/late-scanner.js'

describe('MemoryIndex', () => {
  it('matches a full scan, and follows updates by re-reading only the changed files', async () => {
    const dir = tempDir()
    for (let i = 0; i < 20; i++) {
      const p = writeFile(join(dir, `m${i}.md`), `---\nname: m${i}\ndescription: d${i}\n---\n`)
      utimesSync(p, 1000 + i, 1000 + i)
    }
    const index = new MemoryIndex(dir)
    expect(await index.list(200)).toEqual(await scanMemoryFiles(dir))
    writeFile(join(dir, 'm3.md'), '---\nname: m3\ndescription: changed\n---\n')
    rmSync(join(dir, 'm4.md'))
    writeFile(join(dir, 'new.md'), '---\nname: new\ndescription: fresh\n---\n')
    await index.update(['m3.md', 'm4.md', 'new.md', 'MEMORY.md'])
    const list = await index.list()
    expect(list).toHaveLength(20)
    expect(list.find((h) => h.filename === 'm3.md')?.description).toBe('changed')
    expect(list.some((h) => h.filename === 'm4.md')).toBe(false)
    expect(list).toEqual(await scanMemoryFiles(dir, { limit: Infinity }))
  })

  it('an older read that comes back last does not undo a newer one (two updates of one file at once)', async () => {
    const dir = tempDir()
    const file = (description: string) =>
      writeFile(join(dir, 'a.md'), `---\nname: a\ndescription: ${description}\n---\n`)
    file('one')
    const late = lateScanner('headers')
    const index = new MemoryIndex(dir, late.scanner)
    await index.load()
    file('two')
    late.arm()
    const older = index.update(['a.md'])
    await new Promise((r) => setTimeout(r, 20))
    file('three')
    const newer = index.update(['a.md'])
    await new Promise((r) => setTimeout(r, 20))
    late.release()
    await Promise.all([older, newer])
    expect((await index.list()).map((h) => h.description)).toEqual(['three'])
  })
})
