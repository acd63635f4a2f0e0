import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { assertCliBuilt, BIN, runBuilt } from '../../test/helpers/built-cli.js'
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

  it('a relative MEMDIR_DATA_DIR is refused, never made inside the folder a command or hook runs in; ~/ is the home dir', async () => {
    const sb = sandbox()
    const env = { ...sb.env, MEMDIR_DATA_DIR: 'memdir-data' }
    const hookInput = (event: string) =>
      JSON.stringify({
        session_id: 's',
        transcript_path: join(sb.root, 't.jsonl'),
        cwd: sb.project,
        hook_event_name: event,
        prompt: 'hello',
      })
    const list = await runBuilt(['list'], { env, cwd: sb.project })
    expect(list.code).toBe(2)
    expect(list.stderr).toContain('MEMDIR_DATA_DIR is "memdir-data", a relative path')
    // The hooks never fail a prompt or a session: they say why and exit 0.
    for (const [args, input] of [
      [['hook', 'prompt'], hookInput('UserPromptSubmit')],
      [['hook', 'prompt'], 'not json'],
      [['hook', 'stop'], hookInput('Stop')],
    ] as const) {
      const r = await runBuilt([...args], { env, cwd: sb.project, input })
      expect(r).toMatchObject({ code: 0, stdout: '' })
      expect(r.stderr).toContain('a relative path')
    }
    expect(readdirSync(sb.project)).toEqual([])
    const home = await runBuilt(['hook', 'prompt'], {
      env: { ...sb.env, MEMDIR_DATA_DIR: '~/memdir-data' },
      cwd: sb.project,
      input: hookInput('UserPromptSubmit'),
    })
    expect(home).toMatchObject({ code: 0, stderr: '' })
    expect(existsSync(join(sb.home, 'memdir-data'))).toBe(true)
    expect(readdirSync(sb.project)).toEqual([])
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
