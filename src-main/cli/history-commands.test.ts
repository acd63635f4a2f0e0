import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandbox, tempDir, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'
import { runCli } from './run.js'

beforeEach(() => clearAutoMemPathCache())

async function cli(env: Record<string, string | undefined>, cwd: string, args: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, cwd })
  return { code, stdout, stderr }
}

describe('memdir history / restore', () => {
  it('lists changes and restores an earlier version', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: tempDir() })
    const file = writeFile(join(getAutoMemPath(sb.ctx()), 'x.md'), 'first\n')
    expect((await cli(sb.env, sb.project, ['history'])).stdout).toContain('external   baseline x.md')
    writeFileSync(file, 'second\n')
    const j = JSON.parse((await cli(sb.env, sb.project, ['history', 'x.md', '--json'])).stdout)
    expect(j.map((e: { change: string }) => e.change)).toEqual(['modify', 'baseline'])
    const first = j[1].id
    expect(await cli(sb.env, sb.project, ['restore', 'x.md', '--to', String(first)])).toMatchObject({
      code: 0,
    })
    expect(readFileSync(file, 'utf8')).toBe('first\n')
    expect((await cli(sb.env, sb.project, ['restore', 'x.md'])).code).toBe(2)
    expect((await cli(sb.env, sb.project, ['restore', 'x.md', '--to', '9999'])).code).toBe(1)
  })

  it('finds a file a Mac named in NFD by its name typed in NFC, and restores it under its own name', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: tempDir() })
    const nfd = 'cafe\u0301.md'
    const file = writeFile(join(getAutoMemPath(sb.ctx()), nfd), 'first\n')
    await cli(sb.env, sb.project, ['history'])
    writeFileSync(file, 'second\n')
    const typed = nfd.normalize('NFC')
    const j = JSON.parse((await cli(sb.env, sb.project, ['history', typed, '--json'])).stdout)
    expect(j.map((e: { change: string; path: string }) => [e.change, e.path])).toEqual([
      ['modify', nfd],
      ['baseline', nfd],
    ])
    expect(await cli(sb.env, sb.project, ['restore', typed, '--to', String(j[1].id)])).toMatchObject({
      code: 0,
    })
    expect(readFileSync(file, 'utf8')).toBe('first\n')
    expect(readdirSync(getAutoMemPath(sb.ctx()))).toEqual([nfd])
  })
})
