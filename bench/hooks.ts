import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { signalAndWait } from '../test/helpers/child-process.js'
import { BIN as CLI } from '../test/helpers/built-cli.js'
import {
  cliWorkspace,
  pairedRatio,
  peakRssMb,
  percentile,
  ratio,
  RSS_PRELOAD,
  startSettledApp,
  table,
} from './lib.js'

/** Runs a child without blocking this process's event loop (the app in it must answer the hook). */
function runAsync(
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
    child.stdin.end(input)
  })
}

function timeProcess(args: string[], input: string | undefined, env: NodeJS.ProcessEnv): number {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return ms
}

type Case = 'warm' | 'cold' | 'cold, code cached' | 'app running'

/**
 * cold: every cache gone (a new install); cold, code cached: the recall caches gone but V8's code
 * cache of the hook kept, as at the first prompt in another project, or after its memories changed.
 */
function clearCaches(c: Case, dataDir: string): void {
  const cache = join(dataDir, 'cache')
  if (c === 'cold') rmSync(cache, { recursive: true, force: true })
  if (c === 'cold, code cached' && existsSync(cache))
    for (const d of readdirSync(cache))
      if (d !== 'code') rmSync(join(cache, d), { recursive: true, force: true })
}

/**
 * `memdir hook prompt` (what Claude Code runs before every prompt), process start to exit, with
 * the offline ranker, next to a bare `node -e 0` measured in the same rounds. Every run is a new
 * session's first prompt (a fixed session would inject nothing after the first run: a no-op).
 * Cases: warm (the caches the previous run left), cold (no caches: they are deleted before each
 * run), cold with the hook's code cache kept (clearCaches), and with the app running (the hook asks it over the socket; the app, in its own settled
 * process, answers from its watcher-fed index). Sizes and cases are interleaved round by round.
 */
export async function benchHooks(sizes = [200, 20_000], runs = 21): Promise<void> {
  if (!existsSync(join(import.meta.dirname, '..', 'out', 'main', 'cli.js'))) {
    console.log('bench/hooks: run `npm run build` first')
    return
  }
  const cases: Case[] = ['warm', 'cold', 'cold, code cached', 'app running']
  const worlds = sizes.map((n) => {
    const w = cliWorkspace(`hooks-${n}`, n)
    // The app listens on its own data dir's socket, so the other cases never reach it.
    return { n, ...w, appEnv: { ...w.env, MEMDIR_DATA_DIR: join(w.dir, 'data-app') } }
  })
  const apps: ChildProcess[] = []
  const node = new Map<string, number[]>()
  const hook = new Map<string, number[]>()
  const injected = new Map<string, number>()
  const rss = new Map<string, { hook: number; node: number }>()
  try {
    for (const w of worlds) apps.push(await startSettledApp(w.appEnv, w.project))
    for (let i = -2; i < runs; i++) {
      for (const w of worlds) {
        for (const c of cases) {
          if (c.startsWith('cold') && w.n > 200) continue // the goal is for 200; 20,000 cold is a one-off
          const key = `${w.n}|${c}`
          const input = JSON.stringify({
            session_id: `bench-${c}-${w.n}-${i}`,
            transcript_path: join(w.dir, 'none.jsonl'),
            cwd: w.project,
            hook_event_name: 'UserPromptSubmit',
            prompt: `why does subsystem ${(i + 37) % 37} deploy pipeline need the feature flag`,
          })
          const env = c === 'app running' ? w.appEnv : w.env
          {
            clearCaches(c, w.env.MEMDIR_DATA_DIR)
            const a = timeProcess(['-e', '0'], undefined, env)
            const t = performance.now()
            const r = await runAsync([CLI, 'hook', 'prompt'], input, env)
            const b = performance.now() - t
            if (r.status !== 0 || !r.stdout.includes('additionalContext'))
              throw new Error(`hook prompt (${key}) gave no context (exit ${r.status}): ${r.stderr}`)
            injected.set(
              key,
              (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } })
                .hookSpecificOutput.additionalContext.length,
            )
            if (i < 0) continue // warm-up: page cache, disk, the app's JIT
            ;(node.get(key) ?? node.set(key, []).get(key)!).push(a)
            ;(hook.get(key) ?? hook.set(key, []).get(key)!).push(b)
          }
        }
      }
    }
    // Peak RSS, once per case after the timed rounds (in the state they left), against bare node.
    for (const w of worlds)
      for (const c of cases) {
        if (c.startsWith('cold') && w.n > 200) continue
        const env = c === 'app running' ? w.appEnv : w.env
        clearCaches(c, w.env.MEMDIR_DATA_DIR)
        const input = JSON.stringify({
          session_id: `bench-rss-${c}-${w.n}`,
          transcript_path: join(w.dir, 'none.jsonl'),
          cwd: w.project,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'why does subsystem 3 deploy pipeline need the feature flag',
        })
        const base = await runAsync(['--require', RSS_PRELOAD, '-e', '0'], '', env)
        const r = await runAsync(['--require', RSS_PRELOAD, CLI, 'hook', 'prompt'], input, env)
        rss.set(`${w.n}|${c}`, { hook: peakRssMb(r.stderr), node: peakRssMb(base.stderr) })
      }
  } finally {
    for (const app of apps) await signalAndWait(app, 'SIGTERM')
    for (const w of worlds) w.cleanup()
  }
  const rows = [...hook.keys()].map((key) => {
    const [n, c] = key.split('|')
    const h = [...hook.get(key)!].sort((x, y) => x - y)
    const b = [...node.get(key)!].sort((x, y) => x - y)
    return {
      memories: Number(n).toLocaleString('en'),
      case: c!,
      'node -e 0 p50 ms': percentile(b, 50).toFixed(0),
      'hook prompt p50 ms': percentile(h, 50).toFixed(0),
      'hook prompt p95 ms': percentile(h, 95).toFixed(0),
      'hook / node': pairedRatio(hook.get(key)!, node.get(key)!),
      'context chars': injected.get(key) ?? 0,
      'peak RSS MB': rss.get(key)?.hook.toFixed(0) ?? '',
      'RSS / node': rss.has(key) ? ratio(rss.get(key)!.hook, rss.get(key)!.node) : '',
    }
  })
  console.log(
    `\nhooks — \`memdir hook prompt\` start to exit (offline ranker, each run a new session's first prompt) vs bare \`node -e 0\` (ratio: median of same-round pairs, ${runs} rounds)`,
  )
  table(rows)
}
