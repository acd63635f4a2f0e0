import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { sanitizePath } from '../src-main/core/paths/sanitize.js'
import { createHost } from '../src-main/host/app/host.js'
import { benchDir, generateMemories, percentile, table } from './lib.js'

const SIZES = [0, 200, 10_000]
const ROUNDS = 3

/**
 * Opening a workspace in the app's host (what the desktop app's main process does at launch) until
 * the memory list is answered: the first opening (no data dir: history records every memory's
 * baseline) and a later one (what changed while closed is found). The baseline is a workspace with
 * no memories, opened in the same round.
 */
async function openOnce(env: Record<string, string>, project: string): Promise<number> {
  const t = performance.now()
  const host = await createHost({ env, projectRoot: project })
  await host.call('memory/list', undefined)
  const ms = performance.now() - t
  await host.close()
  return ms
}

export async function benchHostStart(): Promise<void> {
  console.log(
    `\n## bench/host-start — opening a workspace until the memory list is answered (${ROUNDS} rounds, sizes interleaved; ratio to an empty workspace in the same round)`,
  )
  const spaces = SIZES.map((count) => {
    const { dir, cleanup } = benchDir(`host${count}`)
    const env = {
      HOME: join(dir, 'home'),
      CLAUDE_CONFIG_DIR: join(dir, 'home', '.claude'),
      MEMDIR_DATA_DIR: join(dir, 'data'),
    }
    const project = join(dir, 'proj')
    const memoryDir = join(env.CLAUDE_CONFIG_DIR, 'projects', sanitizePath(project), 'memory')
    mkdirSync(memoryDir, { recursive: true })
    generateMemories(memoryDir, count)
    mkdirSync(project, { recursive: true })
    return { count, env, project, cleanup, first: [] as number[], again: [] as number[] }
  })
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const s of spaces) {
        rmSync(s.env.MEMDIR_DATA_DIR, { recursive: true, force: true })
        s.first.push(await openOnce(s.env, s.project))
        s.again.push(await openOnce(s.env, s.project))
      }
    const med = (a: number[]) =>
      percentile(
        [...a].sort((x, y) => x - y),
        50,
      )
    const [empty] = spaces
    table(
      spaces.map((s) => ({
        memories: s.count.toLocaleString('en'),
        'first opening ms': med(s.first).toFixed(0),
        'vs empty': `${(med(s.first) / med(empty!.first)).toFixed(1)}×`,
        'next opening ms': med(s.again).toFixed(0),
        'vs empty ': `${(med(s.again) / med(empty!.again)).toFixed(1)}×`,
      })),
    )
  } finally {
    for (const s of spaces) s.cleanup()
  }
}
