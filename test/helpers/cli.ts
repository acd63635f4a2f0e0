import { runCli } from '../../src-main/cli/run.js'
export { until } from './until.js'

/** Runs `memdir` in-process with captured output; `run(args)` resolves to the exit code. */
export function cliSession(env: Record<string, string | undefined>, cwd: string, signal?: AbortSignal) {
  const io = { stdout: '', stderr: '' }
  const run = (args: string[]) =>
    runCli(args, { stdout: (t) => (io.stdout += t), stderr: (t) => (io.stderr += t), env, cwd, signal })
  return { io, run }
}
