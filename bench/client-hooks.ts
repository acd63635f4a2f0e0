import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { reply, startFakeAnthropic, text, type RecordedRequest } from '../test/fake-anthropic/server.js'
import { install, resolveVersion, type InstalledClient } from '../test/helpers/claude-code.js'
import { BIN as CLI } from '../test/helpers/built-cli.js'
import { clientEnv, runClient, writeClientConfig } from '../e2e/real-client.js'
import { SELECTOR_SYSTEM_PROMPT } from '../src-main/core/recall/selector-prompt.js'
import { cliWorkspace, pairedRatio, percentile, table } from './lib.js'

// The client needs its API key; a hook run without it has no model, so Memdir ranks offline.
const WITHOUT_KEY = 'env -u ANTHROPIC_API_KEY -u ANTHROPIC_AUTH_TOKEN'

/** `Hooks: UserPromptSubmit [<command>] finished with status 0 (123ms)`, as the native clients log it. */
function hookTimes(debugLog: string, event: string): number[] {
  const re = new RegExp(`Hooks: ${event} \\[[^\\]]*\\] finished with status \\d+ \\((\\d+)ms\\)`, 'g')
  return [...debugLog.matchAll(re)].map((m) => Number(m[1]))
}

const isSelector = (r: RecordedRequest) =>
  JSON.stringify(r.body.system ?? '').includes(SELECTOR_SYSTEM_PROMPT.slice(0, 60))

type Setup = 'node -e 0' | 'offline ranker' | 'model selector'

/**
 * What Memdir's hooks add to each prompt, as the real client's own debug log reports it
 * (`claude -p --debug-file`): the `UserPromptSubmit` and `Stop` hook durations with Memdir's hooks
 * installed over `n` memories — ranking offline, and with the model selector (a loopback fake that
 * answers at once, so this is Memdir's own cost) — next to hooks that run a bare `node -e 0`, in the
 * same rounds. Only the native clients log hook durations (2.1.88 logs that a hook ran, not how long).
 */
export async function benchClientHooks(n = 200, rounds = 9, requested = 'newest'): Promise<void> {
  if (!existsSync(join(import.meta.dirname, '..', 'out', 'main', 'cli.js'))) {
    console.log('bench/client-hooks: run `npm run build` first')
    return
  }
  let client: InstalledClient
  try {
    client = install(resolveVersion(requested))
  } catch (e) {
    console.log(`bench/client-hooks: no Claude Code ${requested} (${e instanceof Error ? e.message : e})`)
    return
  }
  const { dir, env: baseEnv, cleanup } = cliWorkspace('client-hooks', n)
  const fake = await startFakeAnthropic([], {
    fallback: {
      kind: 'dynamic',
      respond: (r) => reply(text(isSelector(r) ? '{"selected_memories":["memory_00001.md"]}' : 'ok')),
    },
  })
  try {
    const env = clientEnv({ ...baseEnv, MEMDIR_EXTRACTION: '0' }, fake.url)
    const projects: Record<Setup, string> = {
      'node -e 0': join(dir, 'baseline'),
      'offline ranker': join(dir, 'offline'),
      'model selector': join(dir, 'selector'),
    }
    for (const p of Object.values(projects)) mkdirSync(p, { recursive: true })
    writeClientConfig(baseEnv.HOME, projects['offline ranker'])
    const config = JSON.parse(readFileSync(join(baseEnv.HOME, '.claude.json'), 'utf8'))
    for (const p of Object.values(projects)) config.projects[p] = { hasTrustDialogAccepted: true }
    writeFileSync(join(baseEnv.HOME, '.claude.json'), JSON.stringify(config))

    const bare = [{ hooks: [{ type: 'command', command: `${WITHOUT_KEY} ${process.execPath} -e 0` }] }]
    mkdirSync(join(projects['node -e 0'], '.claude'))
    writeFileSync(
      join(projects['node -e 0'], '.claude', 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: bare, Stop: bare } }),
    )
    for (const setup of ['offline ranker', 'model selector'] as const) {
      const base = `${setup === 'offline ranker' ? `${WITHOUT_KEY} ` : ''}${process.execPath} ${CLI}`
      const args = [CLI, 'hooks', 'install', '--scope', 'project', '--cwd', projects[setup]]
      const r = spawnSync(process.execPath, args, {
        env: { ...env, MEMDIR_HOOK_COMMAND: base },
        encoding: 'utf8',
      })
      if (r.status !== 0) throw new Error(`hooks install: ${r.stderr}`)
    }

    const times = Object.fromEntries(
      Object.keys(projects).map((s) => [s, { prompt: [] as number[], stop: [] as number[] }]),
    ) as Record<Setup, { prompt: number[]; stop: number[] }>
    for (let i = -1; i < rounds; i++) {
      for (const [setup, cwd] of Object.entries(projects) as [Setup, string][]) {
        const log = join(dir, `debug-${i}.txt`)
        const prompt = `why does subsystem ${(i + 37) % 37} deploy pipeline need the feature flag`
        const run = await runClient(client, ['-p', prompt, '--debug', '--debug-file', log], { cwd, env })
        if (run.code !== 0) throw new Error(`claude -p exited ${run.code}: ${run.out.slice(0, 500)}`)
        const debug = readFileSync(log, 'utf8')
        rmSync(log)
        const prompts = hookTimes(debug, 'UserPromptSubmit')
        const stops = hookTimes(debug, 'Stop')
        if (prompts.length !== 1 || stops.length !== 1)
          throw new Error(`Claude Code ${client.version} logged no hook durations for ${setup}`)
        if (i < 0) continue // warm-up: page cache, the client's and Memdir's caches
        times[setup].prompt.push(prompts[0]!)
        times[setup].stop.push(stops[0]!)
      }
    }
    const node = times['node -e 0']
    const rows = (['offline ranker', 'model selector'] as const).flatMap((setup) =>
      (['prompt', 'stop'] as const).map((hook) => {
        const m = [...times[setup][hook]].sort((a, b) => a - b)
        const b = [...node[hook]].sort((a, c) => a - c)
        return {
          hook: hook === 'prompt' ? 'UserPromptSubmit' : 'Stop',
          memdir: setup,
          'node -e 0 p50 ms': percentile(b, 50),
          'memdir p50 ms': percentile(m, 50),
          'memdir max ms': m.at(-1) ?? 0,
          'added p50 ms': percentile(m, 50) - percentile(b, 50),
          'memdir / node': pairedRatio(times[setup][hook], node[hook]),
        }
      }),
    )
    console.log(
      `\nclient-hooks — hook duration per prompt as Claude Code ${client.version} logs it (${n} memories, ${rounds} rounds; ratio: median of same-round pairs)`,
    )
    table(rows)
  } finally {
    await fake.close()
    cleanup()
  }
}
