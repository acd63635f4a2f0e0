import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { waitForOutput } from '../test/helpers/child-process.js'
import { BIN as CLI } from '../test/helpers/built-cli.js'
import { agentSocketPath, offerAgentJob } from '../src-main/host/integrations/agent-socket-client.js'

/** Median wall time of `runs` runs of fn, in ms, after `warmup` untimed runs (JIT tier-up). */
export async function timeIt(fn: () => Promise<unknown>, runs = 5, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await fn()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] as number
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

export function benchDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `memdir-bench-${prefix}-`))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

const TYPES = ['user', 'feedback', 'project', 'reference']

/** `n` realistic memory files (frontmatter + a few paragraphs), distinct mtimes. */
export function generateMemories(dir: string, n: number, sub = ''): void {
  const base = Date.UTC(2026, 0, 1) / 1000
  mkdirSync(join(dir, sub), { recursive: true })
  for (let i = 0; i < n; i++) {
    const p = join(dir, sub, `memory_${String(i).padStart(5, '0')}.md`)
    writeFileSync(
      p,
      `---\nname: Memory ${i}\ndescription: Fact number ${i} about subsystem ${i % 37} and its deploy pipeline\ntype: ${TYPES[i % 4]}\n---\n\n` +
        `Rule ${i}: keep the ${i % 37} service behind the feature flag.\n\n**Why:** incident ${i}.\n\n**How to apply:** check the flag first.\n` +
        'Background detail. '.repeat(20) +
        '\n',
    )
    utimesSync(p, base + i * 60, base + i * 60)
  }
}

export function table(rows: Record<string, string | number>[]): void {
  console.table(rows)
}

export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`

/**
 * The median of a[i] / b[i]: each pair ran back to back in one round, so a slow spell of a noisy
 * machine scales both sides of a pair instead of skewing one side's median.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): string {
  const r = a.map((x, i) => x / b[i]!).sort((x, y) => x - y)
  return `${percentile(r, 50).toFixed(2)}×`
}

/** Runs `fn` over `items` with at most `limit` in flight; failures become undefined. */
export async function mapSettledBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<(R | undefined)[]> {
  const out = new Array<R | undefined>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      if (signal?.aborted) return
      const i = next++
      try {
        out[i] = await fn(items[i] as T)
      } catch {
        out[i] = undefined
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/**
 * A temp workspace for the CLI benches: `n` generated memories in a memory dir that
 * CLAUDE_COWORK_MEMORY_PATH_OVERRIDE points at, an empty project, and the env to run `memdir` in.
 */
export function cliWorkspace(prefix: string, n: number) {
  const { dir, cleanup } = benchDir(prefix)
  const memoryDir = join(dir, 'memory')
  generateMemories(memoryDir, n)
  const project = join(dir, 'project')
  mkdirSync(project)
  const env = {
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    MEMDIR_DATA_DIR: join(dir, 'data'),
    CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: memoryDir,
  }
  return { dir, memoryDir, project, env, cleanup }
}

/**
 * `memdir web` in its own process: the host the desktop app runs in its main process, serving the
 * built renderer, apart from the bench (as the app is apart from its renderer and from the agents
 * that call it). Resolves once it serves, with its URL (which carries the access token).
 */
export async function startMemdirWeb(
  env: NodeJS.ProcessEnv,
  project: string,
): Promise<{ app: ChildProcess; url: string }> {
  const app = spawn(process.execPath, [CLI, 'web', '--cwd', project], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [, url] = await waitForOutput(app, /running at (\S+)/, 'memdir web', { ms: 120_000 })
  return { app, url: url as string }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** CPU ticks the process has used, its threads included (Linux); undefined elsewhere. */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return Number(fields[11]) + Number(fields[12]) // utime, stime
  } catch {
    return undefined
  }
}

/**
 * Resolves once the process uses under 5 % of a core for two seconds running (at most two minutes):
 * done with what it does at launch (history baseline, search index).
 */
export async function waitUntilSettled(pid: number): Promise<void> {
  let quiet = 0
  for (let s = 0, last = cpuTicks(pid); s < 120 && quiet < 2 && last !== undefined; s++) {
    await sleep(1000)
    const now = cpuTicks(pid)!
    quiet = now - last < 5 ? quiet + 1 : 0 // ticks are 10 ms: under 50 ms of CPU in a second
    last = now
  }
}

/**
 * The app as a user has it: its own process (`memdir web`, the desktop app's host without the
 * window), answering on its socket, and settled (waitUntilSettled).
 */
export async function startSettledApp(env: NodeJS.ProcessEnv, project: string): Promise<ChildProcess> {
  const { app } = await startMemdirWeb(env, project)
  const socket = agentSocketPath(env.MEMDIR_DATA_DIR!)
  while (!(await offerAgentJob(socket, { type: 'ping' }, 1000)).accepted) await sleep(100)
  await waitUntilSettled(app.pid!)
  return app
}

/**
 * Preloaded with `--require` into a command, it reports the process's peak RSS on exit (stderr),
 * without changing how the command itself loads.
 */
export const RSS_PRELOAD = join(import.meta.dirname, 'rss-preload.cjs')

/** The peak RSS in MB a process run with RSS_PRELOAD reported on its stderr. */
export const peakRssMb = (stderr: string) => Number(/MAXRSS_KB (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024
