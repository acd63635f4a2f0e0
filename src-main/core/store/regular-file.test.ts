import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { HealthChecker } from '../health/health-checker.js'
import { grepTool } from '../model/tools/grep.js'
import { readTool } from '../model/tools/read.js'
import { readIfExists } from './atomic-write.js'
import { readMemory } from './memory-files.js'
import { readRegularFile, readRegularHead } from './regular-file.js'
import { listMemoryFiles, readTextFiles, scanMemoryFiles } from './scan.js'
import { walkFiles } from './walk-files.js'

const memory = (name: string) =>
  `---\nname: ${name}\ndescription: the deploy pipeline needs the feature flag\ntype: project\n---\n\nflag first\n`

/** A memory dir where some `.md` names are a FIFO (opening it waits for a writer), a device and a dir. */
function oddDir() {
  const dir = tempDir()
  writeFile(join(dir, 'deploy.md'), memory('Deploy'))
  writeFile(join(dir, 'team', 'rollback.md'), memory('Rollback'))
  execFileSync('mkfifo', [join(dir, 'pipe.md'), join(dir, 'team', 'pipe.md')])
  symlinkSync(join(dir, 'pipe.md'), join(dir, 'pipe-link.md'))
  symlinkSync('/dev/zero', join(dir, 'zero.md'))
  mkdirSync(join(dir, 'folder.md'))
  return dir
}

describe.skipIf(process.platform === 'win32')('only regular files are read', () => {
  it('a FIFO, a device and a directory fail at once, as file-system errors', async () => {
    const dir = oddDir()
    await expect(readRegularFile(join(dir, 'pipe.md'), 1e6)).rejects.toMatchObject({
      code: 'EINVAL',
      message: `${join(dir, 'pipe.md')} is a FIFO, not a file Memdir reads`,
    })
    await expect(readIfExists(join(dir, 'zero.md'))).rejects.toMatchObject({ code: 'EINVAL' })
    await expect(readIfExists(join(dir, 'folder.md'))).rejects.toMatchObject({ code: 'EISDIR' })
    await expect(readRegularFile(join(dir, 'deploy.md'), 10)).rejects.toMatchObject({ code: 'EFBIG' })
    await expect(readMemory(dir, 'pipe-link.md')).rejects.toMatchObject({ code: 'EINVAL' })
    expect(await readIfExists(join(dir, 'gone.md'))).toBeNull()
    expect(await readRegularHead(join(dir, 'deploy.md'), 11)).toBe('---\nname: D')
    await expect(readRegularHead(join(dir, 'zero.md'), 11)).rejects.toMatchObject({ code: 'EINVAL' })
  })

  it('listing, scanning, team reads and Health see the real memories and nothing else', async () => {
    const dir = oddDir()
    expect((await listMemoryFiles(dir)).sort()).toEqual(['deploy.md', 'team/rollback.md'])
    expect((await scanMemoryFiles(dir)).map((h) => h.filename).sort()).toEqual([
      'deploy.md',
      'team/rollback.md',
    ])
    expect((await walkFiles(join(dir, 'team'))).sort()).toEqual(['rollback.md'])
    expect((await readTextFiles([join(dir, 'pipe.md')], 1e6))[0]).toEqual({ kind: 'not_file' })
    const report = await new HealthChecker({ memoryDir: dir }).check()
    expect(new Set(report.findings.map((f) => f.path))).toEqual(new Set(['deploy.md', 'team/rollback.md']))
    expect(JSON.stringify(report.findings)).not.toMatch(/pipe|zero|folder/)
  })

  it("the agents' Read and Grep, pointed at one, answer instead of waiting or reading for ever", async () => {
    const dir = oddDir()
    const ctx = { cwd: dir }
    for (const name of ['pipe.md', 'zero.md'])
      await expect(readTool.run({ file_path: join(dir, name) }, ctx)).rejects.toMatchObject({
        code: 'EINVAL',
      })
    expect(
      (await grepTool.run({ pattern: 'flag', path: dir, output_mode: 'files_with_matches' }, ctx)).content,
    ).toBe([join(dir, 'deploy.md'), join(dir, 'team', 'rollback.md')].join('\n'))
    expect((await grepTool.run({ pattern: 'x', path: '/dev/zero' }, ctx)).content).toBe('No matches found')
  })
})
