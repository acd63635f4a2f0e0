import { type ChildProcess, spawn } from 'node:child_process'

/**
 * The first match of `pattern` in a child's standard output (what a server prints once it
 * listens); later output is read and dropped, so the pipe never fills. Rejects if the child exits
 * first or `ms` pass, with `why()` (e.g. its stderr so far) in the message.
 */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  what: string,
  opts: { ms?: number; why?: () => string } = {},
): Promise<RegExpExecArray> {
  const { ms = 20_000, why = () => '' } = opts
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (c: Buffer) => {
      out += c.toString()
      const m = pattern.exec(out)
      if (!m) return
      child.stdout!.off('data', onData)
      child.stdout!.resume()
      resolve(m)
    }
    child.stdout!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready: ${why()}`)))
    setTimeout(() => reject(new Error(`${what} was not ready within ${ms / 1000} s: ${why()}`)), ms).unref()
  })
}

/** Sends `signal` to a child that is still running and waits until it has exited. */
export async function signalAndWait(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill(signal)
  await exited
}

/**
 * `memdir watch` for a project, once it says it is watching (and listening for the hooks); `stop`
 * ends it as Ctrl-C does.
 */
export async function startWatch(
  bin: string,
  project: string,
  env: Record<string, string | undefined>,
): Promise<{ stop: () => Promise<void> }> {
  const watch = spawn(process.execPath, [bin, 'watch', '--cwd', project], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  watch.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  await waitForOutput(watch, /watching/, 'memdir watch', { ms: 20_000, why: () => stderr })
  return { stop: () => signalAndWait(watch, 'SIGINT') }
}
