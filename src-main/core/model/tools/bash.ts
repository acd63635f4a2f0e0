import { spawn } from 'node:child_process'
import { type AgentTool, numberArg, stringArg } from './types.js'

const DEFAULT_TIMEOUT_MS = 30_000
const MAX_OUTPUT = 30_000

export function runShell(command: string, cwd: string, timeoutMs: number, signal?: AbortSignal) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, signal, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const add = (c: Buffer) => {
      if (output.length < MAX_OUTPUT) output += c.toString('utf8')
    }
    child.stdout.on('data', add)
    child.stderr.on('data', add)
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      resolve({ code: null, output: output + e.message })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({
        code,
        output: output.length > MAX_OUTPUT ? output.slice(0, MAX_OUTPUT) + '\n(output truncated)' : output,
      })
    })
  })
}

export const bashTool: AgentTool = {
  name: 'Bash',
  description: 'Runs a shell command in the working directory and returns its combined output.',
  input_schema: {
    type: 'object',
    properties: {
      command: { type: 'string' },
      timeout: { type: 'number', description: 'Milliseconds, default 30000' },
    },
    required: ['command'],
  },
  async run(input, ctx) {
    const command = stringArg(input, 'command', true)
    const timeout = Math.min(numberArg(input, 'timeout') ?? DEFAULT_TIMEOUT_MS, 120_000)
    const { code, output } = await runShell(command, ctx.cwd, timeout, ctx.signal)
    return { content: output || `(no output, exit code ${code})`, isError: code !== 0 }
  },
}
