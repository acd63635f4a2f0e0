import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/memdir.js', import.meta.url))
const CLI = fileURLToPath(new URL('../../out/main/cli.js', import.meta.url))

/** Throws a clear error when the CLI bundle has not been built. */
export function assertCliBuilt(): void {
  if (!existsSync(CLI)) throw new Error('out/main/cli.js is missing: run `npm run build` before these tests')
}

export interface Ran {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

/** Runs the built `memdir` (bin/memdir.js → out/main) as its own process, with `input` on stdin. */
export function runBuilt(
  args: string[],
  opts: { env: Record<string, string | undefined>; cwd?: string; input?: string; timeoutMs?: number },
): Promise<Ran> {
  assertCliBuilt()
  const t = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH, ...opts.env } as NodeJS.ProcessEnv,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, ms: performance.now() - t })
    })
    child.stdin.end(opts.input ?? '')
  })
}
