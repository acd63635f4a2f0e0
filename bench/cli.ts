import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { cliWorkspace, pairedRatio, percentile, ratio, table } from './lib.js'
import { BIN as CLI } from '../test/helpers/built-cli.js'

const ROOT = join(import.meta.dirname, '..')
const RSS_CHILD = join(import.meta.dirname, 'rss-child.mjs')

function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): { ms: number; stderr: string } {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { env, cwd, encoding: 'utf8' })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return { ms, stderr: r.stderr }
}

const rssOf = (stderr: string) => Number(/MAXRSS_KB (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024

/**
 * CLI start-up: `memdir path`, `list` and offline `recall`, process start to exit, against a bare
 * `node -e 0` measured in the same interleaved rounds; peak RSS of `list` against bare node.
 */
export async function benchCli(sizes = [200, 20_000], runs = 21): Promise<void> {
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
    console.log('bench/cli: run `npm run build` first')
    return
  }
  const rows: Record<string, string | number>[] = []
  for (const n of sizes) {
    const { project, env, cleanup } = cliWorkspace(`cli-${n}`, n)
    try {
      const commands: Record<string, string[]> = {
        'node -e 0': ['-e', '0'],
        path: [CLI, 'path'],
        list: [CLI, 'list'],
        recall: [CLI, 'recall', 'why does the subsystem 7 deploy pipeline need the feature flag'],
      }
      const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]))
      for (let i = -2; i < runs; i++)
        for (const [name, args] of Object.entries(commands)) {
          const { ms } = run(args, env, project)
          if (i >= 0) times[name]!.push(ms)
        }
      const p50 = (k: string) =>
        percentile(
          [...times[k]!].sort((a, b) => a - b),
          50,
        )
      const rssNode = rssOf(run([RSS_CHILD, '-'], env, project).stderr)
      const rssList = rssOf(run([RSS_CHILD, CLI, 'list'], env, project).stderr)
      const base = p50('node -e 0')
      rows.push({
        memories: n.toLocaleString('en'),
        'node ms': base.toFixed(0),
        'path ms': p50('path').toFixed(0),
        'path / node': pairedRatio(times.path!, times['node -e 0']!),
        'list ms': p50('list').toFixed(0),
        'list / node': pairedRatio(times.list!, times['node -e 0']!),
        'recall ms': p50('recall').toFixed(0),
        'recall / node': pairedRatio(times.recall!, times['node -e 0']!),
        'list RSS MB': rssList.toFixed(0),
        'RSS / node': ratio(rssList, rssNode),
      })
    } finally {
      cleanup()
    }
  }
  console.log(
    '\ncli — process start to exit (p50 ms of interleaved rounds; ratios: median of same-round pairs) and peak RSS, against bare node',
  )
  table(rows)
}
