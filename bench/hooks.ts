import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { cliWorkspace, pairedRatio, percentile, table } from './lib.js'

const CLI = join(import.meta.dirname, '..', 'bin', 'memdir.js')

function timeProcess(args: string[], input: string | undefined, env: NodeJS.ProcessEnv): number {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return ms
}

/**
 * `memdir hook prompt` (what Claude Code runs before every prompt), process start to exit, with
 * the offline ranker — next to a bare `node -e 0` measured in the same rounds.
 */
export async function benchHooks(sizes = [200, 20_000], runs = 21): Promise<void> {
  if (!existsSync(join(import.meta.dirname, '..', 'out', 'main', 'cli.js'))) {
    console.log('bench/hooks: run `npm run build` first')
    return
  }
  const rows: Record<string, string | number>[] = []
  for (const n of sizes) {
    const { dir, project, env, cleanup } = cliWorkspace(`hooks-${n}`, n)
    try {
      const node: number[] = []
      const hook: number[] = []
      let injected = 0
      for (let i = -2; i < runs; i++) {
        const input = JSON.stringify({
          session_id: `bench-${n}-${i}`,
          transcript_path: join(dir, 'none.jsonl'),
          cwd: project,
          hook_event_name: 'UserPromptSubmit',
          prompt: `why does subsystem ${i % 37} deploy pipeline need the feature flag`,
        })
        const a = timeProcess(['-e', '0'], undefined, env)
        const t = performance.now()
        const r = spawnSync(process.execPath, [CLI, 'hook', 'prompt'], { input, env, encoding: 'utf8' })
        const b = performance.now() - t
        if (r.status !== 0 || !r.stdout.includes('additionalContext'))
          throw new Error(`hook prompt gave no context (exit ${r.status}): ${r.stderr}`)
        injected = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } })
          .hookSpecificOutput.additionalContext.length
        if (i < 0) continue // warm-up: page cache, disk
        node.push(a)
        hook.push(b)
      }
      const paired = pairedRatio(hook, node)
      node.sort((x, y) => x - y)
      hook.sort((x, y) => x - y)
      const p50n = percentile(node, 50)
      const p50h = percentile(hook, 50)
      rows.push({
        memories: n.toLocaleString('en'),
        'node -e 0 p50 ms': p50n.toFixed(0),
        'hook prompt p50 ms': p50h.toFixed(0),
        'hook prompt p95 ms': percentile(hook, 95).toFixed(0),
        'hook / node': paired,
        'context chars': injected,
      })
    } finally {
      cleanup()
    }
  }
  console.log(
    '\nhooks — `memdir hook prompt` start to exit (offline ranker) vs bare `node -e 0` (ratio: median of same-round pairs)',
  )
  table(rows)
}
