import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { assertCliBuilt, BIN } from '../../test/helpers/built-cli.js'
import { sandbox, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'

beforeEach(() => clearAutoMemPathCache())

describe('built memdir binary', () => {
  beforeAll(() => assertCliBuilt())

  it('runs from out/ after npm run build', async () => {
    const sb = sandbox()
    const run = promisify(execFile)
    const { stdout } = await run(process.execPath, [BIN, 'path', '--json', '--cwd', sb.project], {
      env: sb.env,
    })
    expect(JSON.parse(stdout).path).toBe(getAutoMemPath(sb.ctx()))
    const err = await run(process.execPath, [BIN, 'frobnicate'], { env: sb.env }).catch((e) => e)
    expect(err.code).toBe(2)
    expect(err.stderr).toContain('unknown command: frobnicate')
  })

  it('lists memories through the bundled scan worker', async () => {
    const sb = sandbox()
    const dir = getAutoMemPath(sb.ctx())
    writeFile(
      join(dir, 'db.md'),
      '---\nname: DB\ndescription: tests hit the real DB\ntype: feedback\n---\nbody\n',
    )
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [BIN, 'list', '--cwd', sb.project],
      // Short-lived commands scan on their own thread unless asked: ask, to prove the bundle works.
      { env: { ...sb.env, MEMDIR_SCAN_THREADS: '1' } },
    )
    expect(stdout).toContain('[feedback] db.md')
    expect(stdout).toContain('tests hit the real DB')
    expect(stderr).not.toContain('scanning on the main thread')
  })
})
