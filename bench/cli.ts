import { type ChildProcess, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
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
import { signalAndWait } from '../test/helpers/child-process.js'
import { BIN as CLI } from '../test/helpers/built-cli.js'

const ROOT = join(import.meta.dirname, '..')

function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): { ms: number; stderr: string } {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { env, cwd, encoding: 'utf8' })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return { ms, stderr: r.stderr }
}

/**
 * CLI start-up: `memdir path`, `list` and offline `recall`, process start to exit, against a bare
 * `node -e 0` measured in the same rounds; `list` and `recall` again with the app running (each
 * size has its own, settled, in its own process and data dir: the other commands never reach it),
 * which answers them from its index. Sizes and commands are interleaved round by round. Peak RSS of
 * `list` (no app) against bare node.
 */
export async function benchCli(sizes = [200, 20_000], runs = 21): Promise<void> {
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
    console.log('bench/cli: run `npm run build` first')
    return
  }
  const query = 'why does the subsystem 7 deploy pipeline need the feature flag'
  const worlds = sizes.map((n) => {
    const w = cliWorkspace(`cli-${n}`, n)
    return { n, ...w, appEnv: { ...w.env, MEMDIR_DATA_DIR: join(w.dir, 'data-app') } }
  })
  const apps: ChildProcess[] = []
  const rows: Record<string, string | number>[] = []
  try {
    for (const w of worlds) apps.push(await startSettledApp(w.appEnv, w.project))
    const commands = (
      w: (typeof worlds)[number],
    ): Record<string, { args: string[]; env: NodeJS.ProcessEnv }> => ({
      'node -e 0': { args: ['-e', '0'], env: w.env },
      path: { args: [CLI, 'path'], env: w.env },
      list: { args: [CLI, 'list'], env: w.env },
      recall: { args: [CLI, 'recall', query], env: w.env },
      'list, app running': { args: [CLI, 'list'], env: w.appEnv },
      'recall, app running': { args: [CLI, 'recall', query], env: w.appEnv },
    })
    const times = new Map(worlds.map((w) => [w.n, new Map<string, number[]>()]))
    for (let i = -2; i < runs; i++)
      for (const w of worlds)
        for (const [name, { args, env }] of Object.entries(commands(w))) {
          const { ms } = run(args, env, w.project)
          if (i < 0) continue
          const t = times.get(w.n)!
          ;(t.get(name) ?? t.set(name, []).get(name)!).push(ms)
        }
    for (const w of worlds) {
      const t = times.get(w.n)!
      const p50 = (k: string) =>
        percentile(
          [...t.get(k)!].sort((a, b) => a - b),
          50,
        )
      const vsNode = (k: string) => `${p50(k).toFixed(0)} ms, ${pairedRatio(t.get(k)!, t.get('node -e 0')!)}`
      const rssNode = peakRssMb(run(['--require', RSS_PRELOAD, '-e', '0'], w.env, w.project).stderr)
      const rssList = peakRssMb(run(['--require', RSS_PRELOAD, CLI, 'list'], w.env, w.project).stderr)
      rows.push({
        memories: w.n.toLocaleString('en'),
        'node ms': p50('node -e 0').toFixed(0),
        path: vsNode('path'),
        list: vsNode('list'),
        recall: vsNode('recall'),
        'list, app running': vsNode('list, app running'),
        'recall, app running': vsNode('recall, app running'),
        'list RSS MB': rssList.toFixed(0),
        'RSS / node': ratio(rssList, rssNode),
      })
    }
  } finally {
    for (const app of apps) await signalAndWait(app, 'SIGTERM')
    for (const w of worlds) w.cleanup()
  }
  console.log(
    `\ncli — process start to exit (p50 ms of ${runs} interleaved rounds; ratios to bare node: median of same-round pairs) and peak RSS`,
  )
  table(rows)
}
