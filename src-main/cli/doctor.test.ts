import { readFileSync, utimesSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSession } from '../../test/helpers/cli.js'
import { gitRepo } from '../../test/helpers/git-repo.js'
import { sandbox, type Sandbox, writeFile } from '../../test/helpers/temp-env.js'
import { getAutoMemPath } from '../core/paths/auto-mem-path.js'

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)
const mem = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`

/**
 * A repository holding `files`, the memory helper.md (`body`) saved a day later with the index
 * `index`, and then git moving src/old.ts to src/new.ts.
 */
function savedThenMoved(sb: Sandbox, files: string[], body: string, index: string) {
  const r = gitRepo(sb.project)
  for (const f of files) r.put(f, 'export const x = 1\n')
  r.commit('initial', T0)
  const dir = getAutoMemPath(sb.ctx())
  const p = writeFile(join(dir, 'helper.md'), mem('Helper', 'the x helper', body))
  utimesSync(p, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
  writeFile(join(dir, 'MEMORY.md'), index)
  r.git(['mv', 'src/old.ts', 'src/new.ts'])
  r.commit('move x', T0 + 2 * DAY)
  return { dir, p }
}

describe('memdir doctor', () => {
  it('lists findings with exit 1 on errors; --fix applies fixes, recorded in history as the user', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: undefined })
    const { dir } = savedThenMoved(
      sb,
      ['src/old.ts'],
      'x lives in `src/old.ts`.',
      '- [Helper](helper.md) — x\n- [Gone](gone.md) — deleted long ago\n',
    )

    const cli = cliSession(sb.env, sb.project)
    expect(await cli.run(['doctor'])).toBe(1)
    expect(cli.io.stdout).toContain(
      'error   dead-pointer        MEMORY.md  Points at gone.md, which does not exist',
    )
    expect(cli.io.stdout).toContain('helper.md  Mentions src/old.ts, which moved to src/new.ts')
    expect(cli.io.stdout).toContain('fix: memdir doctor --fix remove-pointer')
    expect(cli.io.stdout).toMatch(/1 memory, 2 commits checked: 1 error, 1 warning, 0 notes/)

    expect(await cli.run(['doctor', '--fix', 'remove-pointer'])).toBe(0)
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('- [Helper](helper.md) — x\n')
    expect(await cli.run(['doctor', '--fix', 'update-path', '--json'])).toBe(0)
    const out = JSON.parse(cli.io.stdout.slice(cli.io.stdout.lastIndexOf('\n{') + 1)) as {
      findings: unknown[]
      applied: string[]
    }
    expect(out.applied).toEqual(['src/old.ts → src/new.ts in helper.md'])
    expect(out.findings).toEqual([])
    expect(readFileSync(join(dir, 'helper.md'), 'utf8')).toContain('x lives in `src/new.ts`.')

    cli.io.stdout = ''
    expect(await cli.run(['history', '--json'])).toBe(0)
    const entries = JSON.parse(cli.io.stdout) as { path: string; author: string; change: string }[]
    expect(entries.filter((e) => e.author === 'user').map((e) => `${e.change} ${e.path}`)).toEqual([
      'modify helper.md',
      'modify MEMORY.md',
    ])
  })

  it.each([
    {
      spelling: 'an absolute path, beside a longer name',
      old: (project: string) => join(project, 'src/old.ts'),
      moved: (project: string) => join(project, 'src/new.ts'),
      around: (path: string) => `x lives in ${path}; its view is in ${join(dirname(path), 'old.tsx')}.`,
    },
    {
      // A path on another machine (C:\dev\…) is not this repository's: left alone.
      spelling: 'a path written on Windows, inside a longer one',
      old: () => 'src\\old.ts',
      moved: () => 'src\\new.ts',
      around: (path: string) => `x lives in \`${path}\` (C:\\dev\\src\\old.ts on my machine).`,
    },
  ])('--fix update-path writes $spelling back in its own spelling', async ({ old, moved, around }) => {
    const sb = sandbox({ MEMDIR_DATA_DIR: undefined })
    const [from, to] = [old(sb.project), moved(sb.project)]
    const { p } = savedThenMoved(
      sb,
      ['src/old.ts', 'src/old.tsx'],
      around(from),
      '- [Helper](helper.md) — x\n',
    )
    const cli = cliSession(sb.env, sb.project)
    expect(await cli.run(['doctor'])).toBe(0)
    expect(cli.io.stdout).toContain(`helper.md  Mentions ${from}, which moved to ${to}`)
    expect(await cli.run(['doctor', '--fix', 'update-path'])).toBe(0)
    expect(readFileSync(p, 'utf8')).toContain(around(to))
  })

  it('--fix removes many dead pointers as one change to MEMORY.md', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: undefined })
    const dir = getAutoMemPath(sb.ctx())
    writeFile(join(dir, 'kept.md'), mem('Kept', 'stays', 'body'))
    const dead = Array.from({ length: 12 }, (_, i) => `- [Gone ${i}](gone_${i}.md) — removed`)
    writeFile(join(dir, 'MEMORY.md'), ['- [Kept](kept.md) — stays', ...dead].join('\n') + '\n')
    const cli = cliSession(sb.env, sb.project)
    expect(await cli.run(['doctor', '--fix', 'remove-pointer', '--json'])).toBe(0)
    const out = JSON.parse(cli.io.stdout) as { applied: string[] }
    expect(out.applied).toHaveLength(12)
    expect(out.applied[0]).toBe('Removed the pointer to gone_0.md')
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('- [Kept](kept.md) — stays\n')
    cli.io.stdout = ''
    expect(await cli.run(['history', '--json'])).toBe(0)
    const entries = JSON.parse(cli.io.stdout) as { path: string; author: string }[]
    expect(entries.filter((e) => e.author === 'user').map((e) => e.path)).toEqual(['MEMORY.md'])
  })

  it('refuses an unknown fix kind as bad usage', async () => {
    const sb = sandbox()
    const cli = cliSession(sb.env, sb.project)
    expect(await cli.run(['doctor', '--fix', 'everything'])).toBe(2)
    expect(cli.io.stderr).toContain('--fix takes one of')
  })
})
