import { spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import * as nodeModule from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assertCliBuilt, BIN } from '../../test/helpers/built-cli.js'
import { signalAndWait, waitForOutput } from '../../test/helpers/child-process.js'
import { agentSocketPath } from '../host/integrations/agent-socket-client.js'
import { tempDir, writeFile } from '../../test/helpers/temp-env.js'

/** A project whose memory dir holds `n` memories, as the built CLI sees it. */
function workspace(n: number) {
  const root = tempDir()
  const memoryDir = join(root, 'memory')
  for (let i = 0; i < n; i++)
    writeFile(
      join(memoryDir, `m${String(i).padStart(3, '0')}.md`),
      `---\nname: Memory ${i}\ndescription: note ${i} ${'x'.repeat(1000)}\ntype: project\n---\n\nBody.\n`,
    )
  const env = {
    PATH: process.env.PATH,
    HOME: join(root, 'home'),
    MEMDIR_DATA_DIR: join(root, 'data'),
    CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: memoryDir,
  }
  return { root, env }
}

describe('the built CLI’s standard streams', () => {
  it('writes large output whole to a pipe, and stops quietly when the reader goes away', async () => {
    assertCliBuilt()
    const { root, env } = workspace(150)
    const whole = spawnSync(process.execPath, [BIN, 'list'], { cwd: root, env, encoding: 'utf8' })
    expect(whole.status).toBe(0)
    expect(whole.stdout.trim().split('\n')).toHaveLength(150)

    // `memdir list | head -1`: the pipe closes after the first chunk.
    const code = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'list'], { cwd: root, env })
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      child.stdout.once('data', () => child.stdout.destroy())
      child.on('close', (c) => resolve({ code: c, stderr }))
    })
    expect(code).toEqual({ code: 0, stderr: '' })
  })

  it('reads hook input from a pipe and from a file', () => {
    assertCliBuilt()
    const { root, env } = workspace(3)
    const input = JSON.stringify({
      session_id: 's1',
      transcript_path: join(root, 'none.jsonl'),
      cwd: root,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'note 1 memory',
    })
    const piped = spawnSync(process.execPath, [BIN, 'hook', 'prompt'], { env, input, encoding: 'utf8' })
    expect(piped.status).toBe(0)
    expect(JSON.parse(piped.stdout).hookSpecificOutput.hookEventName).toBe('UserPromptSubmit')

    const file = join(root, 'input.json')
    writeFileSync(file, input.replace('"s1"', '"s2"'))
    const fd = openSync(file, 'r')
    try {
      const fromFile = spawnSync(process.execPath, [BIN, 'hook', 'prompt'], {
        env,
        stdio: [fd, 'pipe', 'pipe'],
        encoding: 'utf8',
      })
      expect(fromFile.status).toBe(0)
      expect(JSON.parse(fromFile.stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
    } finally {
      closeSync(fd)
    }
  })

  /** Runs the prompt hook with a preload that lists every module its process loaded. */
  function hookWithModules(root: string, env: Record<string, string | undefined>) {
    const listed = join(root, 'modules.txt')
    const preload = join(root, 'list-modules.cjs')
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(listed)}, process.moduleLoadList.join('\\n')))`,
    )
    const r = spawnSync(process.execPath, ['--require', preload, BIN, 'hook', 'prompt'], {
      env,
      encoding: 'utf8',
      input: JSON.stringify({
        session_id: `modules-${Math.random()}`,
        transcript_path: join(root, 'none.jsonl'),
        cwd: root,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'note 1 memory',
      }),
    })
    return { r, loaded: readFileSync(listed, 'utf8').split('\n') }
  }

  it('a socket left by an app that was killed is not tried: the prompt hook recalls offline without node:net', async () => {
    assertCliBuilt()
    const { root, env } = workspace(3)
    const app = spawn(process.execPath, [BIN, 'web', '--cwd', root], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    await waitForOutput(app, /running at/, 'memdir web')
    const socket = agentSocketPath(env.MEMDIR_DATA_DIR)
    await signalAndWait(app, 'SIGKILL') // nothing of its own cleanup runs
    expect(existsSync(socket)).toBe(true)
    const { r, loaded } = hookWithModules(root, env)
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
    expect(loaded).not.toContain('NativeModule net')
  })

  it('the prompt hook’s process, offline, loads no fs/promises (nor the readline modules it brings)', () => {
    assertCliBuilt()
    const { root, env } = workspace(3)
    const { r, loaded } = hookWithModules(root, env)
    expect(r.status).toBe(0)
    // It did its whole job: recalled, injected, and wrote what it keeps between prompts.
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
    expect(readdirSync(join(env.MEMDIR_DATA_DIR, 'cache'))).toContain('recall')
    expect(loaded).not.toContain('NativeModule fs/promises')
    expect(loaded).not.toContain('NativeModule internal/fs/promises')
    expect(loaded.filter((m) => m.includes('readline'))).toEqual([])
  })

  // Node ≥ 22.1 keeps compiled code itself (module.enableCompileCache); older Node runs the
  // prompt hook's file from a code cache bin/memdir.js keeps in the data dir.
  it.skipIf('enableCompileCache' in nodeModule)(
    'the prompt hook keeps its compiled code in the data dir, the user’s only, and trusts no other',
    () => {
      assertCliBuilt()
      const { root, env } = workspace(3)
      const hook = (session: string, input?: string, prompt = 'note 1 memory') =>
        spawnSync(process.execPath, [BIN, 'hook', 'prompt'], {
          env,
          encoding: 'utf8',
          input:
            input ??
            JSON.stringify({
              session_id: session,
              transcript_path: join(root, 'none.jsonl'),
              cwd: root,
              hook_event_name: 'UserPromptSubmit',
              prompt,
            }),
        })
      const dir = join(env.MEMDIR_DATA_DIR, 'cache', 'code')
      const first = hook('a')
      expect(first.status).toBe(0)
      // The offline recall's file (the first step, which asks a running app, is too small to gain).
      const [name, ...others] = readdirSync(dir)
      expect(others).toEqual([])
      expect(name).toMatch(/^hook-offline-/)
      const cache = join(dir, name!)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      expect(statSync(cache).mode & 0o777).toBe(0o600)
      const written = statSync(cache).mtimeMs

      // From the cache: the same answer, and the cache is left as it is (V8 took it).
      const second = hook('b')
      expect(second.status).toBe(0)
      expect(second.stdout).toBe(first.stdout.replace('"a"', '"b"'))
      expect(JSON.parse(second.stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
      expect(statSync(cache).mtimeMs).toBe(written)
      // A header only the YAML library reads (a folded description): the cached file loads it from
      // node_modules as the ES module build does.
      writeFile(
        join(env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, 'project_kafka.md'),
        '---\nname: Kafka lag\ndescription: >-\n  consumer lag alert\n  for orders\ntype: project\nmetadata: {owner: sam}\n---\n\nAlert past 10k.\n',
      )
      const yamlOnly = hook('y', undefined, 'kafka consumer lag alert')
      expect(JSON.parse(yamlOnly.stdout).hookSpecificOutput.additionalContext).toContain('project_kafka.md')
      expect(statSync(cache).mtimeMs).toBe(written)

      // Input that is not JSON is handed to the full CLI from the cached file too.
      const bad = hook('c', 'not json')
      expect({ code: bad.status, stdout: bad.stdout, stderr: bad.stderr }).toEqual({
        code: 0,
        stdout: '',
        stderr: '',
      })
      expect(readFileSync(join(env.MEMDIR_DATA_DIR, 'logs', 'hooks.log'), 'utf8')).toContain(
        'the hook input is not JSON',
      )

      // A cache someone else could have written is code nobody vouches for: never read, replaced.
      chmodSync(cache, 0o666)
      const third = hook('d')
      expect(JSON.parse(third.stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
      expect(statSync(cache).mode & 0o777).toBe(0o600)
      expect(statSync(cache).mtimeMs).toBeGreaterThan(written)
      // A symlink, even to a valid cache (elsewhere, where someone else may write it): not read, and
      // replaced by a file of its own; what it pointed at is left alone.
      const elsewhere = join(root, 'elsewhere.bin')
      const original = readFileSync(cache)
      copyFileSync(cache, elsewhere)
      rmSync(cache)
      symlinkSync(elsewhere, cache)
      expect(JSON.parse(hook('s').stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
      expect(lstatSync(cache).isSymbolicLink()).toBe(false)
      expect(readFileSync(elsewhere)).toEqual(original)

      // A damaged cache: V8 refuses it, the hook answers all the same, and the cache is written again.
      writeFileSync(cache, 'garbage')
      const fourth = hook('e')
      expect(JSON.parse(fourth.stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
      expect(statSync(cache).size).toBeGreaterThan(1000)

      // Caches of other builds (another install, another Node): the newest three stay beside this
      // build's, so two installs do not throw each other's away at every prompt; older ones go.
      const otherBuilds = ['1-1', '2-2', '3-3', '4-4', '5-5'].map((v, i) => {
        const f = join(dir, `hook-offline-${v}-v0.0.0-x64.bin`)
        writeFileSync(f, 'other build')
        utimesSync(f, 1_700_000_000 + i * 60, 1_700_000_000 + i * 60)
        return f
      })
      const cutShort = join(dir, 'hook-offline-9-9-v0.0.0-x64.bin.4242.tmp') // a write a crash cut short
      writeFileSync(cutShort, 'half')
      rmSync(cache) // this build's own: the next run compiles and saves it
      expect(JSON.parse(hook('o').stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
      expect(existsSync(cache)).toBe(true)
      expect(otherBuilds.map((f) => existsSync(f))).toEqual([false, false, true, true, true])
      expect(existsSync(cutShort)).toBe(false)

      // A cache dir that is a symlink: nothing is read from it or written into it.
      const otherDir = join(root, 'other-dir')
      mkdirSync(otherDir)
      rmSync(dir, { recursive: true })
      symlinkSync(otherDir, dir)
      expect(JSON.parse(hook('t').stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
      expect(readdirSync(otherDir)).toEqual([])
    },
  )
})

describe('a shell whose folder was deleted', () => {
  // sh enters the folder, removes it and runs the CLI there: its working dir no longer exists.
  const fromGone = (args: string[], env: Record<string, string | undefined>, input?: string) => {
    const gone = join(tempDir(), 'removed-worktree')
    mkdirSync(gone)
    return spawnSync(
      '/bin/sh',
      ['-c', 'cd "$0" && rmdir "$0" && exec "$@"', gone, process.execPath, BIN, ...args],
      { env, input, encoding: 'utf8' },
    )
  }

  it('a command says so plainly, --cwd still works, and the hooks recall from their input', () => {
    assertCliBuilt()
    const { root, env } = workspace(3)
    const list = fromGone(['list'], env)
    expect(list.status).toBe(1)
    expect(list.stderr).toBe(
      'memdir: the current directory no longer exists (it was deleted or moved): cd to your project, or pass --cwd DIR\n',
    )
    expect(fromGone(['list', '--cwd', root], env).stdout.trim().split('\n')).toHaveLength(3)
    const input = (event: string) =>
      JSON.stringify({
        session_id: `gone-${event}`,
        transcript_path: join(root, 'none.jsonl'),
        cwd: root,
        hook_event_name: event,
        prompt: 'memory 1 note',
      })
    const prompt = fromGone(['hook', 'prompt'], env, input('UserPromptSubmit'))
    expect(prompt).toMatchObject({ status: 0, stderr: '' })
    expect(JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext).toContain('Memory 1')
    expect(fromGone(['hook', 'stop'], env, input('Stop'))).toMatchObject({ status: 0, stderr: '' })
  })
})

describe('a memory a teammate wrote, printed to a terminal', () => {
  // `script` (util-linux) runs the CLI on a pseudo-terminal, as a user's shell would.
  it.skipIf(!existsSync('/usr/bin/script'))(
    'shows the escape sequences in its description instead of sending them; a pipe gets the text as it is',
    () => {
      assertCliBuilt()
      const { root, env } = workspace(0)
      writeFile(
        join(env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, 'evil.md'),
        '---\nname: Evil\ndescription: "clear \\e[2J\\e]0;pwned\\a title"\ntype: project\n---\nbody\n',
      )
      const onTerminal = spawnSync(
        '/usr/bin/script',
        ['-qec', `"${process.execPath}" "${BIN}" list`, '/dev/null'],
        { cwd: root, env, encoding: 'utf8' },
      )
      expect(onTerminal.status).toBe(0)
      expect(onTerminal.stdout).toContain('clear ^[[2J^[]0;pwned^G title')
      expect(onTerminal.stdout).not.toContain('\x1b')
      const piped = spawnSync(process.execPath, [BIN, 'list'], { cwd: root, env, encoding: 'utf8' })
      expect(piped.stdout).toContain('clear \x1b[2J\x1b]0;pwned\x07 title')
    },
  )
})

describe('Memdir’s data dir', () => {
  it.skipIf(process.platform === 'win32')(
    'the first hook makes it the user’s only: it will hold copies of every memory',
    () => {
      assertCliBuilt()
      const { root, env } = workspace(2)
      expect(existsSync(env.MEMDIR_DATA_DIR)).toBe(false)
      const input = JSON.stringify({
        session_id: 'private-1',
        transcript_path: join(root, 'none.jsonl'),
        cwd: root,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'memory 1 note',
      })
      const r = spawnSync(process.execPath, [BIN, 'hook', 'prompt'], {
        cwd: root,
        env,
        input,
        encoding: 'utf8',
      })
      expect(r.status).toBe(0)
      expect(statSync(env.MEMDIR_DATA_DIR).mode & 0o777).toBe(0o700)
    },
  )
})

describe('memdir web on a port that is taken', () => {
  it('says so and ends, instead of printing the error and running on', async () => {
    const { createServer } = await import('node:net')
    const taken = createServer()
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r))
    const port = (taken.address() as { port: number }).port
    try {
      const { runBuilt } = await import('../../test/helpers/built-cli.js')
      const home = tempDir()
      const project = tempDir()
      const r = await runBuilt(['web', '--port', String(port), '--cwd', project], {
        env: { HOME: home, MEMDIR_DATA_DIR: join(home, '.memdir') },
        timeoutMs: 20_000,
      })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`port ${port} is in use`)
    } finally {
      taken.close()
    }
  }, 30_000)
})
