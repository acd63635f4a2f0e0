import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
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

  it('a busy server that asks for ten minutes (Retry-After) is not tried again sooner, nor a year later', async () => {
    let retryAfter = '600'
    const busy = createServer((_req, res) => {
      res.writeHead(503, { 'retry-after': retryAfter })
      res.end('down for maintenance')
    })
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`
    try {
      for (const [asked, expected] of [
        ['600', 600_000],
        // A timer cannot wait past ~24 days (it would fire at once): a day is the longest wait.
        [String(365 * 24 * 3600), 24 * 3600_000],
      ] as const) {
        retryAfter = asked
        const events: TeamSyncEvent[] = []
        const s = scheduler(url, 'tmt_x', join(tempDir(), 'team'), events)
        await s.start()
        expect(events.find((e) => e.type === 'error')).toMatchObject({
          permanent: false,
          retryInMs: expected,
        })
        await s.stop()
      }
    } finally {
      busy.close()
    }
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
