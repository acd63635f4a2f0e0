import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTeamServer, listen } from '../src-server/http-server.js'
import { openSqliteStore } from '../src-server/sqlite-store.js'
import { TeamApiClient } from '../src-main/core/team/api-client.js'
import { readLocalTeamEntries } from '../src-main/core/team/local-entries.js'
import { createSyncState, planBatches, pushTeamMemory, type SyncDeps } from '../src-main/core/team/sync.js'
import { benchDir, generateMemories, ratio, table } from './lib.js'

export async function benchSync(files = 5000): Promise<void> {
  console.log(`\n## bench/sync — ${files}-file team dir against the real local server`)
  const { dir, cleanup } = benchDir('sync')
  const store = openSqliteStore(join(dir, 'server.sqlite'))
  const server = createTeamServer({ store, maxBodyBytes: 1024 * 1024 })
  const url = await listen(server, 0)
  try {
    const team = join(dir, 'team')
    generateMemories(team, files)
    const token = await store.addToken(['bench/repo'])
    let requests = 0
    let bytes = 0
    const api = new TeamApiClient({
      baseUrl: url,
      token,
      onRequest: (r) => ((requests += 1), (bytes += r.bytes)),
    })
    const deps: SyncDeps = { api, repo: 'bench/repo', teamDir: team, state: createSyncState() }
    // Baseline: uploading every file, batched the same way, with no delta.
    const { entries } = await readLocalTeamEntries(team)
    const batches = planBatches([...entries.keys()], entries)
    const fullBytes = batches.reduce(
      (n, b) =>
        n +
        Buffer.byteLength(JSON.stringify({ entries: Object.fromEntries(b.map((k) => [k, entries.get(k)])) })),
      0,
    )
    const rows: Record<string, string | number>[] = []
    const measure = async (label: string) => {
      requests = 0
      bytes = 0
      const t = performance.now()
      const r = await pushTeamMemory(deps)
      rows.push({
        push: label,
        'keys sent': r.pushed.length,
        requests,
        'bytes sent': bytes,
        'vs full upload': ratio(bytes, fullBytes),
        ms: (performance.now() - t).toFixed(0),
      })
    }
    await measure('first')
    await measure('no-op')
    writeFileSync(join(team, 'memory_01234.md'), 'changed\n')
    await measure('one file changed')
    console.log(`full upload baseline: ${batches.length} requests, ${fullBytes} bytes`)
    table(rows)
  } finally {
    server.closeAllConnections()
    await new Promise<void>((r) => server.close(() => r()))
    await store.close()
    cleanup()
  }
}
