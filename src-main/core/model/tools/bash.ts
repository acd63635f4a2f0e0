import { spawn, type ChildProcess } from 'node:child_process'
import { checkReadOnlyCommand, type ParsedCommand } from '../bash-readonly.js'
import { type AgentTool, numberArg, stringArg, inputSchema, params } from './types.js'

const DEFAULT_TIMEOUT_MS = 30_000
const MAX_OUTPUT = 30_000
/** The commands run with a fixed PATH and environment: nothing the user's shell setup defines applies. */
const SAFE_ENV = { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C.UTF-8' }

/**
 * Runs a parsed pipeline without a shell: each command is spawned with its argv, stdout piped to
 * the next one's stdin; the output is the last command's stdout plus every stderr not discarded.
 */
export function runPipeline(
  pipeline: readonly ParsedCommand[],
  cwd: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = ''
    const add = (c: Buffer) => {
      if (output.length < MAX_OUTPUT) output += c.toString('utf8')
    }
    const children: ChildProcess[] = []
    let pending = pipeline.length
    let lastCode: number | null = null
    let failed: string | undefined
    const timer = setTimeout(() => children.forEach((c) => c.kill('SIGKILL')), timeoutMs)
    const done = () => {
      clearTimeout(timer)
      const text = output.length > MAX_OUTPUT ? output.slice(0, MAX_OUTPUT) + '\n(output truncated)' : output
      resolve({ code: failed ? null : lastCode, output: failed ? text + failed : text })
    }
    pipeline.forEach((cmd, i) => {
      const child = spawn(cmd.argv[0]!, cmd.argv.slice(1), {
        cwd,
        env: { ...SAFE_ENV, HOME: cwd },
        signal,
        shell: false,
        stdio: [i === 0 ? 'ignore' : 'pipe', 'pipe', cmd.discardStderr ? 'ignore' : 'pipe'],
      })
      children.push(child)
      const prev = children[i - 1]
      if (prev) {
        prev.stdout!.pipe(child.stdin!)
        child.stdin!.on('error', () => {}) // the reader may exit first (head)
      }
      if (i === pipeline.length - 1) child.stdout!.on('data', add)
      child.stderr?.on('data', add)
      child.on('error', (e) => {
        failed ??= `${cmd.argv[0]}: ${e.message}`
      })
      child.on('close', (code) => {
        if (i === pipeline.length - 1) lastCode = code
        if (--pending === 0) done()
      })
    })
  })
}

export const bashTool: AgentTool = {
  name: 'Bash',
  description:
    'Runs one read-only command, or a pipeline of them (ls, wc, head, tail, stat, du, grep, find tests, …), without a shell, and returns its combined output.',
  input_schema: inputSchema(
    { command: params.string(), timeout: params.number('Milliseconds, default 30000') },
    ['command'],
  ),
  async run(input, ctx) {
    const command = stringArg(input, 'command', true)
    const timeout = Math.min(numberArg(input, 'timeout') ?? DEFAULT_TIMEOUT_MS, 120_000)
    const v = checkReadOnlyCommand(command)
    if (!v.readOnly) return { content: `Refused: ${v.reason}.`, isError: true }
    const { code, output } = await runPipeline(v.pipeline, ctx.cwd, timeout, ctx.signal)
    return { content: output || `(no output, exit code ${code})`, isError: code !== 0 }
  },
}
