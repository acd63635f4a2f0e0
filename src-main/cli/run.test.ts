import { existsSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'
import { runCli } from './run.js'

beforeEach(() => clearAutoMemPathCache())

async function cli(args: string[], env: Record<string, string | undefined>, cwd: string) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, cwd })
  return { code, stdout, stderr }
}

describe('memdir CLI', () => {
  it('path --json reports the dir, the winning source and enablement', async () => {
    const sb = sandbox()
    const r = await cli(['path', '--json', '--cwd', sb.project], sb.env, '/')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ source: 'default', enabled: true, enabledReason: 'default', rejected: [] })
    expect(out.path).toBe(getAutoMemPath(sb.ctx()))
  })

  it('path shows a rejected override and the fallback', async () => {
    const sb = sandbox({ CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: 'relative/dir' })
    const r = await cli(['path'], sb.env, sb.project)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('source: default')
    expect(r.stdout).toContain('rejected: env value "relative/dir": path must be absolute')
  })

  it('path honours settings sources, including --settings', async () => {
    const sb = sandbox()
    const flag = writeFile(join(sb.root, 'flag.json'), JSON.stringify({ autoMemoryDirectory: '~/flagged' }))
    const r = await cli(['path', '--json', '--settings', flag], sb.env, sb.project)
    expect(JSON.parse(r.stdout)).toMatchObject({
      source: 'settings:flag',
      path: join(sb.home, 'flagged') + '/',
    })
  })

  it('prompt prints the section, or disabled with the reason', async () => {
    const sb = sandbox()
    const on = await cli(['prompt'], sb.env, sb.project)
    expect(on.stdout).toMatch(/^# auto memory/)
    expect(existsSync(getAutoMemPath(sb.ctx()))).toBe(false) // a preview creates nothing
    const off = await cli(['prompt'], { ...sb.env, CLAUDE_CODE_SIMPLE: '1' }, sb.project)
    expect(off).toMatchObject({ code: 0, stdout: 'disabled: bare mode (CLAUDE_CODE_SIMPLE)\n' })
    const kairos = await cli(['prompt', '--mode', 'kairos'], sb.env, sb.project)
    expect(kairos.stdout).toContain('YYYY/MM/YYYY-MM-DD.md')
  })

  it('list --json gives the manifest fields, newest first', async () => {
    const sb = sandbox()
    const dir = getAutoMemPath(sb.ctx())
    const a = writeFile(join(dir, 'a.md'), '---\nname: A\ndescription: alpha\ntype: user\n---\nx\n')
    const b = writeFile(join(dir, 'b.md'), '---\nname: B\n---\ny\n')
    utimesSync(a, 1000, 1000)
    utimesSync(b, 2000, 2000)
    const r = await cli(['list', '--json'], sb.env, sb.project)
    expect(JSON.parse(r.stdout)).toEqual([
      { filename: 'b.md', type: null, description: null, mtimeMs: 2_000_000 },
      { filename: 'a.md', type: 'user', description: 'alpha', mtimeMs: 1_000_000 },
    ])
    const text = await cli(['list'], sb.env, sb.project)
    expect(text.stdout).toBe(
      '- b.md (1970-01-01T00:33:20.000Z)\n- [user] a.md (1970-01-01T00:16:40.000Z): alpha\n',
    )
  })

  it('index prints MEMORY.md as loaded with the truncation warning', async () => {
    const sb = sandbox()
    const lines = Array.from({ length: 250 }, (_, i) => `- [m${i}](m${i}.md) — h`).join('\n')
    writeFile(join(getAutoMemPath(sb.ctx()), 'MEMORY.md'), lines)
    const r = await cli(['index'], sb.env, sb.project)
    expect(r.stdout).toContain('WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded.')
    expect(r.stdout).not.toContain('[m200]')
    const j = JSON.parse((await cli(['index', '--json'], sb.env, sb.project)).stdout)
    expect(j).toMatchObject({ lineCount: 250, maxLines: 200, keptLines: 200, maxChars: 25_000 })
    expect(j.warning).toContain('250 lines (limit: 200)')
    expect(j.lineStates.filter((s: string) => s === 'cut')).toHaveLength(50)
  })

  it('index says whether MEMORY.md is missing or loads nothing', async () => {
    const sb = sandbox()
    const index = join(getAutoMemPath(sb.ctx()), 'MEMORY.md')
    expect((await cli(['index'], sb.env, sb.project)).stdout).toBe(`no MEMORY.md yet (${index})\n`)
    writeFile(index, '<!-- nothing here yet -->\n')
    expect((await cli(['index'], sb.env, sb.project)).stdout).toBe(`MEMORY.md is empty (${index})\n`)
  })

  it('a memory dir a file stands in: every command that reads it names the file; path still answers', async () => {
    const sb = sandbox()
    const dir = getAutoMemPath(sb.ctx()).replace(/\/$/, '')
    writeFile(dir, 'not a folder\n')
    for (const args of [['doctor'], ['history'], ['list'], ['recall', 'deploy steps'], ['index']]) {
      const r = await cli(args, sb.env, sb.project)
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(
        `memdir: ${dir} is a file, not a folder: no memory can be kept there (Claude Code's neither). Move or rename that file.\n`,
      )
    }
    expect((await cli(['path'], sb.env, sb.project)).code).toBe(0)
  })

  it('exits 2 on bad usage and 1 on errors, with a one-line message', async () => {
    const sb = sandbox()
    expect((await cli(['nope'], sb.env, sb.project)).code).toBe(2)
    expect((await cli(['path', '--bogus'], sb.env, sb.project)).code).toBe(2)
    expect((await cli([], sb.env, sb.project)).code).toBe(2)
    expect((await cli(['prompt', '--mode', 'x'], sb.env, sb.project)).code).toBe(2)
    const bad = await cli(['list'], { ...sb.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '/' }, sb.project)
    expect(bad.code).toBe(0) // a rejected override falls back, it is not an error
  })

  it('--cwd must name a folder that is there: a typo is not answered for a project that does not exist', async () => {
    const sb = sandbox()
    const typo = await cli(['list', '--cwd', sb.project + '-typo'], sb.env, '/')
    expect(typo).toMatchObject({ code: 2, stdout: '' })
    expect(typo.stderr).toContain(`--cwd ${sb.project}-typo: no such folder (ENOENT)`)
    const file = writeFile(join(sb.project, 'notes.txt'), 'x')
    expect((await cli(['path', '--cwd', file], sb.env, '/')).stderr).toContain('a file, not a folder')
    expect((await cli(['list', '--cwd', sb.project], sb.env, '/')).code).toBe(0)
  })
})
