import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startTeamServer } from '../../../test/helpers/team-server.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { TeamApiClient } from './api-client.js'
import { TeamSyncScheduler, type TeamSyncEvent } from './scheduler.js'
import { createSyncState } from './sync.js'
import { until } from '../../../test/helpers/until.js'

const REPO = 'acme/shop'

function scheduler(url: string, token: string, teamDir: string, events: TeamSyncEvent[]) {
  return new TeamSyncScheduler({
    deps: {
      api: new TeamApiClient({ baseUrl: url, token }),
      repo: REPO,
      teamDir,
      state: createSyncState(),
      sleep: async () => {},
    },
    debounceMs: 100,
    retryBaseMs: 200,
    random: () => 0,
    pullIntervalMs: 60_000,
    onEvent: (e) => events.push(e),
  })
}

describe('TeamSyncScheduler', () => {
  it('pulls on start and pushes shortly after a local change', async () => {
    const server = await startTeamServer()
    const token = await server.token(REPO)
    await server.store.upsert(REPO, { 'welcome.md': 'hi\n' }, undefined, 100)
    const teamDir = join(tempDir(), 'team')
    const events: TeamSyncEvent[] = []
    const s = scheduler(server.url, token, teamDir, events)
    await s.start()
    expect(readFileSync(join(teamDir, 'welcome.md'), 'utf8')).toBe('hi\n')
    expect(events.find((e) => e.type === 'synced')).toMatchObject({ pulled: ['welcome.md'] })
    writeFile(join(teamDir, 'new.md'), 'fresh\n')
    await until(() => events.some((e) => e.type === 'synced' && e.pushed.includes('new.md')))
    expect((await server.store.getRepo(REPO))!.entries.get('new.md')?.content).toBe('fresh\n')
    await s.stop()
  })

  it('with the server down: reports the error, keeps the files, and syncs once it is back', async () => {
    const probe = await startTeamServer()
    const port = Number(new URL(probe.url).port)
    await probe.close()
    const teamDir = join(tempDir(), 'team')
    writeFile(join(teamDir, 'offline.md'), 'written offline\n')
    const events: TeamSyncEvent[] = []
    const s = scheduler(`http://127.0.0.1:${port}`, 'tmt_later', teamDir, events)
    await s.start()
    const err = events.find((e) => e.type === 'error')
    expect(err).toMatchObject({ type: 'error', permanent: false, retryInMs: 200 })
    expect(readFileSync(join(teamDir, 'offline.md'), 'utf8')).toBe('written offline\n')

    const server = await startTeamServer({ port })
    const token = await server.token(REPO)
    await s.stop()
    const events2: TeamSyncEvent[] = []
    const again = scheduler(server.url, token, teamDir, events2)
    await again.start()
    expect(events2.find((e) => e.type === 'synced')).toMatchObject({ pushed: ['offline.md'] })
    await again.stop()
  })

  it('Sync now reports skipped files with their reasons', async () => {
    const server = await startTeamServer()
    const token = await server.token(REPO)
    const teamDir = join(tempDir(), 'team')
    const events: TeamSyncEvent[] = []
    const s = scheduler(server.url, token, teamDir, events)
    await s.start()
    writeFile(join(teamDir, 'leak.md'), '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n')
    await s.syncNow()
    const last = events.filter((e) => e.type === 'synced').at(-1)
    expect(last).toMatchObject({
      skipped: [{ key: 'leak.md', kind: 'secret', reason: expect.stringContaining('private key') }],
    })
    await s.stop()
  })
})
