import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMANDS, synopsis } from './command-table.js'
import { usage } from './run.js'

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')

/** The first cell of each row of the README's CLI table: `memdir …`. */
function readmeCommands(): string[] {
  const section = README.slice(
    README.indexOf('\n## CLI'),
    README.indexOf('\n## ', README.indexOf('\n## CLI') + 1),
  )
  return [...section.matchAll(/^\| `(memdir [^`]*)` \|/gm)].map((m) => m[1]!.replace(/\\\|/g, '|'))
}

describe('the command table', () => {
  it('is the README CLI reference, row for row', () => {
    expect(readmeCommands()).toEqual(COMMANDS.map(synopsis))
  })

  it('is what --help lists', () => {
    const help = usage()
    for (const c of COMMANDS) expect(help).toContain(synopsis(c).slice('memdir '.length))
  })

  it('names each command once', () => {
    const names = COMMANDS.map((c) => c.words.join(' '))
    expect(new Set(names).size).toBe(names.length)
  })
})

describe('per-command flags', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' }
    return {
      out,
      io: {
        stdout: (t: string) => (out.stdout += t),
        stderr: (t: string) => (out.stderr += t),
        env: {},
        cwd: '/',
      },
    }
  }

  it.each([
    [['list', '--force']],
    [['team-server', '--cwd', '/tmp']],
    [['path', '--mode', 'team']],
    [['hook', 'prompt', '--json']],
    [['web', '--settings', 'x.json']],
    [['hooks', 'frobnicate']],
    [['restore', 'a.md', 'b.md', '--to', '1']],
  ])('refuses %j with exit 2 and the command’s own usage', async (argv) => {
    const { runCli } = await import('./run.js')
    const { io: cliIo, out } = io()
    expect(await runCli(argv, cliIo)).toBe(2)
    expect(out.stderr).toMatch(/^memdir: /)
    expect(out.stderr).toMatch(/usage: memdir |Usage: memdir/)
  })

  it.each([
    [['restore', 'a.md', '--to', 'zzz'], /"zzz" is not a version/, 'usage: memdir restore'],
    [['restore', 'a.md', '--to', '1e3'], /"1e3" is not a version/, 'usage: memdir restore'],
    [['recall', '  '], /recall needs a query/, 'usage: memdir recall'],
  ])(
    'a usage error a command finds in %j says what is wrong and shows that command’s usage only',
    async (argv, said, own) => {
      const { runCli } = await import('./run.js')
      const { io: cliIo, out } = io()
      expect(await runCli(argv, cliIo)).toBe(2)
      expect(out.stderr).toMatch(said)
      expect(out.stderr).toContain(own)
      expect(out.stderr).not.toContain('Commands (')
    },
  )

  it('prints one command’s help', async () => {
    const { runCli } = await import('./run.js')
    const { io: cliIo, out } = io()
    expect(await runCli(['sync', '--help'], cliIo)).toBe(0)
    expect(out.stdout).toContain('usage: memdir sync [--pull|--push] [--json]')
    expect(out.stdout).toContain('--cwd DIR')
  })
})
