import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { walkFiles } from './walk-files.js'

describe('walkFiles', () => {
  it('lists every file under the dir, relative with /, and no dirs', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'team', 'deep'), { recursive: true })
    mkdirSync(join(root, 'empty.md')) // a dir named like a memory is not a file
    writeFileSync(join(root, 'a.md'), 'a')
    writeFileSync(join(root, 'team', 'b.md'), 'b')
    writeFileSync(join(root, 'team', 'deep', '.c.md.123.ab.tmp'), 'c')
    expect((await walkFiles(root)).sort()).toEqual(['a.md', 'team/b.md', 'team/deep/.c.md.123.ab.tmp'])
  })

  it('follows symlinks, walks each real dir once (a loop ends), and skips a dangling link', async () => {
    const root = tempDir()
    const outside = tempDir()
    writeFileSync(join(outside, 'linked.md'), 'x')
    mkdirSync(join(root, 'sub'))
    writeFileSync(join(root, 'sub', 's.md'), 's')
    symlinkSync(root, join(root, 'sub', 'back-to-root'))
    symlinkSync(join(root, 'sub'), join(root, 'sub-again'))
    symlinkSync(outside, join(root, 'shared'))
    symlinkSync(join(root, 'nowhere.md'), join(root, 'dangling.md'))
    expect((await walkFiles(root)).sort()).toEqual(['shared/linked.md', 'sub/s.md'])
  })

  it('a missing dir throws ENOENT, as readdir does', async () => {
    await expect(walkFiles(join(tempDir(), 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
