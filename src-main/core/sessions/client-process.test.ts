import { spawnSync } from 'node:child_process'
import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { clientProcessOf, forkOrigin } from './client-process.js'

const A = '3f59c3a6-b5a0-4b29-aa8c-feafa8d9f2fc'
const B = '6ac10961-d2a9-41f0-9fb7-e034a7a0c2cc'
const NEW = 'dbc1c4c2-a622-4da7-acde-cf117e509d75'

function project() {
  const dir = tempDir()
  for (const id of [A, B]) writeFileSync(join(dir, `${id}.jsonl`), '{}\n')
  utimesSync(join(dir, `${A}.jsonl`), new Date(1_000_000), new Date(1_000_000))
  return { dir, transcript: join(dir, `${NEW}.jsonl`) }
}
const claude = (...args: string[]) => ['/usr/bin/claude', ...args]
const shell = ['/bin/sh', '-c', 'memdir hook prompt']

describe('the session a new session was forked from', () => {
  it('is the one its client was told to resume, in every spelling of the flag', () => {
    const { dir, transcript } = project()
    for (const argv of [
      claude('-p', '--resume', A, '--fork-session', 'next'),
      claude('--fork-session', `--resume=${A}`),
      claude('-r', A, '--fork-session'),
    ])
      expect(forkOrigin(transcript, [shell, argv])).toBe(join(dir, `${A}.jsonl`))
  })

  it('is the newest other session of the project for --continue', () => {
    const { dir, transcript } = project()
    expect(forkOrigin(transcript, [shell, claude('--continue', '--fork-session')])).toBe(
      join(dir, `${B}.jsonl`),
    )
    expect(forkOrigin(transcript, [shell, claude('-c', '--fork-session', '-p', 'x')])).toBe(
      join(dir, `${B}.jsonl`),
    )
  })

  it('is none without --fork-session, for a name that is no session of this project, or for itself', () => {
    const { transcript } = project()
    expect(forkOrigin(transcript, [shell, claude('--resume', A, '-p', 'x')])).toBeUndefined()
    expect(
      forkOrigin(transcript, [shell, claude('--resume', 'my session', '--fork-session')]),
    ).toBeUndefined()
    expect(forkOrigin(transcript, [shell, claude('--resume', '--fork-session')])).toBeUndefined()
    const elsewhere = '0e8b1c52-5a8e-4a4e-9d7c-1c2f2b8e7a11'
    expect(forkOrigin(transcript, [shell, claude('--resume', elsewhere, '--fork-session')])).toBeUndefined()
    expect(forkOrigin(transcript, [shell, claude('--resume', `../${A}`, '--fork-session')])).toBeUndefined()
    expect(forkOrigin(transcript, [shell, claude('--resume', NEW, '--fork-session')])).toBeUndefined()
    expect(forkOrigin(transcript, [])).toBeUndefined()
  })

  it.runIf(process.platform === 'linux')(
    "is found from the client's command line two processes up, as a hook runs",
    () => {
      const { dir, transcript } = project()
      const probe = join(tempDir(), 'probe.mts')
      writeFileSync(
        probe,
        `import { ancestorProcesses, forkOrigin } from ${JSON.stringify(new URL('./client-process.ts', import.meta.url).pathname)}\n` +
          `process.stdout.write(String(forkOrigin(${JSON.stringify(transcript)}, await (await ancestorProcesses()).map((a) => a.argv))))\n`,
      )
      // A client process (bash, named claude, with the client's flags) runs the hook through a shell.
      const r = spawnSync(
        'bash',
        [
          '-c',
          `sh -c '${process.execPath} --import tsx ${probe}; true'; true`,
          'claude',
          '--resume',
          A,
          '--fork-session',
        ],
        { encoding: 'utf8' },
      )
      expect(r.stderr).toBe('')
      expect(r.stdout).toBe(join(dir, `${A}.jsonl`))
    },
  )
})

describe('the client process a hook runs under', () => {
  const hook = {
    pid: 30,
    argv: ['node', '/opt/memdir/bin/memdir.js', 'hook', 'prompt'],
    started: '900',
    comm: 'node',
  }
  const sh = { pid: 20, argv: shell, started: '800', comm: 'sh' }
  it('is the nearest ancestor that is Claude Code, named by its pid and start time', () => {
    const native = { pid: 10, argv: ['claude', '-p', 'x'], started: '700', comm: 'claude' }
    expect(clientProcessOf([sh, native])).toBe('10@700')
    // The Node build names its process claude; the native installer runs a file under claude/versions/.
    const node = { pid: 11, argv: ['claude', '', ''], started: '701', comm: 'claude' }
    expect(clientProcessOf([sh, node])).toBe('11@701')
    const installed = {
      pid: 12,
      argv: ['/home/u/.local/share/claude/versions/2.1.337'],
      started: '7',
      comm: '2.1.337',
    }
    expect(clientProcessOf([sh, installed])).toBe('12@7')
    const wrapper = {
      pid: 13,
      argv: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'],
      started: '8',
    }
    expect(clientProcessOf([sh, wrapper])).toBe('13@8')
  })

  it('is unknown when no ancestor is Claude Code, or its start time is not known', () => {
    // A wrapper between (npx) is a new process at every prompt: never taken for the client.
    const npx = { pid: 25, argv: ['npm', 'exec', 'memdir'], started: '850', comm: 'npm exec memdir' }
    expect(clientProcessOf([hook, npx, sh])).toBeUndefined()
    expect(clientProcessOf([sh, { pid: 10, argv: ['claude'] }])).toBeUndefined()
  })
})
