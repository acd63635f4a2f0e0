import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const BIN = join(ROOT, 'bin/memdir.js')
const CLI = join(ROOT, 'out/main/cli.js')
/** What the CLI bundle is built from (tests are not bundled). */
const SOURCES = ['src-main', 'src-shared', 'src-server']

function newestSource(): { path: string; mtimeMs: number } {
  let newest = { path: '', mtimeMs: 0 }
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const { mtimeMs } = statSync(p)
        if (mtimeMs > newest.mtimeMs) newest = { path: p, mtimeMs }
      }
    }
  }
  for (const dir of SOURCES) walk(join(ROOT, dir))
  return newest
}

let checked = false

/**
 * Throws a clear error when the CLI bundle is missing or older than a source it is built from:
 * a stale bundle would test yesterday's code and pass.
 */
export function assertCliBuilt(): void {
  if (checked) return
  if (!existsSync(CLI)) throw new Error('out/main/cli.js is missing: run `npm run build` before these tests')
  const source = newestSource()
  if (source.mtimeMs > statSync(CLI).mtimeMs)
    throw new Error(
      `out/main/cli.js is older than ${relative(ROOT, source.path)}: run \`npm run build\` before these tests`,
    )
  checked = true
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
