import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../../test/helpers/temp-env.js'
import { ToolInputError } from './types.js'
import { grepTool } from './grep.js'

describe('the agents’ Grep tool', () => {
  it('finds lines as ripgrep would, case-insensitively on request', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'deploy.md'), 'Deploy on Tuesdays\nnever on Fridays\n')
    writeFile(join(dir, 'other.md'), 'nothing here\n')
    const content = await grepTool.run({ pattern: 'on \\w+days', output_mode: 'content' }, { cwd: dir })
    expect(content.content).toBe(
      `${join(dir, 'deploy.md')}:1:Deploy on Tuesdays\n${join(dir, 'deploy.md')}:2:never on Fridays`,
    )
    const files = await grepTool.run({ pattern: 'DEPLOY', '-i': true }, { cwd: dir })
    expect(files.content).toBe(join(dir, 'deploy.md'))
  })

  it('returns at once for a pattern that backtracks forever in a JavaScript regex', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'long.md'), `${'a'.repeat(5_000)}b\n`)
    const started = performance.now()
    const r = await grepTool.run({ pattern: '(a+)+$', output_mode: 'count' }, { cwd: dir })
    expect(r.content).toBe('No matches found') // the line ends in b
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('says which syntax it takes when a pattern uses lookaround or a backreference', async () => {
    const dir = tempDir()
    for (const pattern of ['(?<=a)b', '(a)\\1'])
      await expect(grepTool.run({ pattern }, { cwd: dir })).rejects.toThrow(
        expect.objectContaining({ message: expect.stringContaining('RE2 syntax, as ripgrep') }),
      )
    await expect(grepTool.run({ pattern: '(' }, { cwd: dir })).rejects.toBeInstanceOf(ToolInputError)
  })
})
