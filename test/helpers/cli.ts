import { runCli } from '../../src-main/cli/run.js'

/** Runs `memdir` in-process with captured output; `run(args)` resolves to the exit code. */
export function cliSession(env: Record<string, string | undefined>, cwd: string, signal?: AbortSignal) {
  const io = { stdout: '', stderr: '' }
  const run = (args: string[]) =>
    runCli(args, { stdout: (t) => (io.stdout += t), stderr: (t) => (io.stderr += t), env, cwd, signal })
  return { io, run }
}

export async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}
