import { readFileSync, writeFileSync } from 'node:fs'
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
})
