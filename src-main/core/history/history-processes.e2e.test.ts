import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { HistoryStore, type HistoryEntry } from './history-store.js'

const run = promisify(execFile)
const CHILD = fileURLToPath(new URL('../../../test/helpers/history-child.ts', import.meta.url))

describe('history shared by several processes', () => {
  it('four writers and a pruner at once: every entry kept, ids unique, the log readable', async () => {
    const dir = join(tempDir(), 'history')
    const writers = ['app', 'cli', 'hook', 'mcp']
    const N = 60
    await Promise.all([
      ...writers.map((w) => run(process.execPath, ['--import', 'tsx', CHILD, dir, w, String(N), 'record'])),
      run(process.execPath, ['--import', 'tsx', CHILD, dir, 'pruner', '2500', 'prune']),
    ])
    const lines = readFileSync(join(dir, 'log.jsonl'), 'utf8').split('\n').filter(Boolean)
    const entries = lines.map((l) => JSON.parse(l) as HistoryEntry) // every line parses
    const ids = entries.map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const w of writers) {
      // Each writer's own file: every version (a first baseline is not needed: it started from nothing).
      expect(entries.filter((e) => e.path === `${w}.md`)).toHaveLength(N)
    }
    // The shared file had more versions than the retention keeps: a prune drops its oldest only.
    const store = new HistoryStore(dir)
    await store.prune()
    const shared = (await store.list({ path: 'shared.md' })).map((e) => e.id)
    expect(shared).toHaveLength(100)
    const allShared = entries.filter((e) => e.path === 'shared.md').map((e) => e.id)
    expect(shared).toEqual(allShared.slice(-100))
    for (const w of writers)
      expect(await store.blob((await store.list({ path: `${w}.md` })).at(-1)!.after!)).toBe(`${w} ${N - 1}`)
  }, 60_000)
})
