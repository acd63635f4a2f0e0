/**
 * Writes as fast as it can until killed: memory saves (file + MEMORY.md, recorded in history) and
 * team pulls of a server that keeps changing. argv: memoryDir, historyDir, teamUrl, token, repo.
 * Every content it writes is `<kind> <n>`, so a reader can tell a whole write from a torn one.
 */
import { join } from 'node:path'
import { HistoryStore } from '../../src-main/core/history/history-store.js'
import { createMemory, updateMemory } from '../../src-main/core/store/memory-files.js'
import { readMemory } from '../../src-main/core/store/memory-files.js'
import { TeamApiClient } from '../../src-main/core/team/api-client.js'
import { SyncBase } from '../../src-main/core/team/sync-base.js'
import { createSyncState, pullTeamMemory } from '../../src-main/core/team/sync.js'
import { recordingWrite } from '../../src-main/host/history/recording.js'

const [memoryDir, historyDir, url, token, repo] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
]
const store = new HistoryStore(historyDir)
const record = recordingWrite(store, memoryDir, { author: 'user' })
const deps = {
  api: new TeamApiClient({ baseUrl: url, token }),
  repo,
  teamDir: join(memoryDir, 'team'),
  state: createSyncState(),
  base: new SyncBase(join(historyDir, '..', 'base.json')),
  record: recordingWrite(store, memoryDir, { author: 'team-pull' }),
  retries: 0,
}
const fields = (n: number) => ({
  name: 'Crash',
  description: 'crash test',
  type: 'project' as const,
  body: `save ${n}\n`.repeat(200),
})
let n = 0
await createMemory(memoryDir, { ...fields(n), relPath: 'crash.md', record }).catch(() => undefined)
process.stdout.write('ready\n')
for (;;) {
  n++
  const doc = await readMemory(memoryDir, 'crash.md')
  await updateMemory(memoryDir, 'crash.md', fields(n), doc.hash, 'flat', { record })
  if (n % 5 === 0) await pullTeamMemory(deps).catch(() => undefined)
}
