import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startTeamServer } from '../../../test/helpers/team-server.js'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { HistoryStore } from '../../core/history/history-store.js'
import { TeamApiClient } from '../../core/team/api-client.js'
import { SyncBase } from '../../core/team/sync-base.js'
import {
  createSyncState,
  exclusiveSync,
  pullTeamMemory,
  pushTeamMemory,
  type SyncDeps,
} from '../../core/team/sync.js'
import { recordingWrite } from '../history/recording.js'
import { keepLocalVersion, type TeamHistory } from './team-setup.js'

/** One client as the app and CLI set it up: history for its writes, a sync base in its data dir. */
function client(url: string, token: string, repo: string, fetchVia?: typeof fetch) {
  const root = tempDir('memdir-client-')
  const memoryDir = join(root, 'memory')
  const teamDir = join(memoryDir, 'team')
  mkdirSync(teamDir, { recursive: true })
  const store = new HistoryStore(join(root, 'data', 'history'))
  const history: TeamHistory = {
    store,
    memoryDir,
    writerFor: (runId) => recordingWrite(store, memoryDir, { author: 'team-pull', runId }),
  }
  let pulls = 0
  const deps: SyncDeps = {
    api: new TeamApiClient({ baseUrl: url, token, fetch: fetchVia }),
    repo,
    teamDir,
    state: createSyncState(),
    base: new SyncBase(join(root, 'data', 'team-sync', 'base.json')),
    beforeOverwrite: (key) => keepLocalVersion(history, `team/${key}`),
    retries: fetchVia ? 1 : 0,
    sleep: async () => {},
  }
  const file = join(teamDir, 'k.md')
  return {
    name: '',
    file,
    store,
    /** A user edit: written and recorded as the user's, as the editor does. */
    edit: async (text: string) => {
      await recordingWrite(store, memoryDir, { author: 'user' })(file, async () => {
        const before = existsSync(file) ? readFileSync(file, 'utf8') : null
        writeFileSync(file, text)
        return { before, after: text }
      })
    },
    pull: () =>
      exclusiveSync(deps, () => pullTeamMemory({ ...deps, record: history.writerFor(`pull-${++pulls}`) })),
    push: () => exclusiveSync(deps, () => pushTeamMemory(deps)),
    /** Every content this client can still get back: on disk and in its history. */
    recoverable: async () => {
      const out = new Set<string>()
      if (existsSync(file)) out.add(readFileSync(file, 'utf8'))
      for (const e of await store.list({ path: 'team/k.md' }))
        for (const h of [e.before, e.after]) if (h) out.add(await store.blob(h))
      return out
    },
  }
}

type Op = 'edit' | 'pull' | 'push'
const ORDERS: Op[][] = [
  ['edit', 'pull', 'push'],
  ['edit', 'push', 'pull'],
  ['pull', 'edit', 'push'],
  ['pull', 'push', 'edit'],
  ['push', 'edit', 'pull'],
  ['push', 'pull', 'edit'],
]

/** Every way to interleave two sequences of three (20). */
function interleavings(a: Op[], b: Op[]): ['A' | 'B', Op][][] {
  if (!a.length) return [b.map((op) => ['B', op] as ['B', Op])]
  if (!b.length) return [a.map((op) => ['A', op] as ['A', Op])]
  return [
    ...interleavings(a.slice(1), b).map((rest) => [['A', a[0]!] as ['A', Op], ...rest]),
    ...interleavings(a, b.slice(1)).map((rest) => [['B', b[0]!] as ['B', Op], ...rest]),
  ]
}

describe('team sync: every interleaving of edit / pull / push by two clients on one key', () => {
  it('never leaves a version unrecoverable, and both clients converge on the server', async () => {
    // 720 schedules of real files, locks and HTTP: on a RAM disk where there is one (fsync is free there).
    const saved = process.env.TMPDIR
    if (existsSync('/dev/shm')) process.env.TMPDIR = '/dev/shm'
    const server = await startTeamServer()
    const schedules = ORDERS.flatMap((a) => ORDERS.flatMap((b) => interleavings(a, b)))
    expect(schedules).toHaveLength(720)
    let conflicts = 0
    const run = async (n: number, schedule: ['A' | 'B', Op][]) => {
      const repo = `acme/k-${n}`
      const token = await server.token(repo)
      const A = client(server.url, token, repo)
      const B = client(server.url, token, repo)
      // A shared starting point: the key on the server and in both clients.
      await A.edit('base\n')
      await A.push()
      await B.pull()
      const made = new Set(['base\n'])
      for (const [who, op] of schedule) {
        const c = who === 'A' ? A : B
        if (op === 'edit') {
          const text = `${who} edit in schedule ${n}\n`
          made.add(text)
          await c.edit(text)
        } else {
          const r = await c[op]()
          if ('conflicts' in r && Array.isArray(r.conflicts)) conflicts += r.conflicts.length
        }
      }
      // Every version anyone made is on a disk, on the server or in a history. Checked once, at
      // the end: nothing brings a lost version back, so a loss at any step would still show here.
      const serverNow = (await server.store.getRepo(repo))?.entries.get('k.md')?.content
      const everywhere = new Set([...(await A.recoverable()), ...(await B.recoverable()), serverNow])
      for (const v of made) expect(everywhere.has(v), `schedule ${n} lost ${JSON.stringify(v)}`).toBe(true)
      // Settle: both sync until nothing moves; they end equal to the server.
      for (const c of [A, B]) await c.pull().then(() => c.push())
      await A.pull()
      await B.pull()
      const final = (await server.store.getRepo(repo))?.entries.get('k.md')?.content
      expect(readFileSync(A.file, 'utf8'), `schedule ${n}`).toBe(final)
      expect(readFileSync(B.file, 'utf8'), `schedule ${n}`).toBe(final)
      expect(readdirSync(join(A.file, '..')).filter((f) => f.endsWith('.tmp'))).toEqual([])
    }
    try {
      // Independent repos and dirs: eight schedules at a time.
      for (let i = 0; i < schedules.length; i += 8)
        await Promise.all(schedules.slice(i, i + 8).map((s, k) => run(i + k, s)))
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
    }
    expect(conflicts).toBeGreaterThan(0) // the walk does reach the both-changed case
  }, 240_000)
})

describe('team sync: a push the server stored whose answer was lost', () => {
  it('the next local edit is a push waiting to go, not a conflict the old version wins', async () => {
    const server = await startTeamServer()
    const repo = 'acme/lost-answer'
    const token = await server.token(repo)
    let dropNextPutAnswer = false
    let stopAfterDrop = false
    let down = false
    // The PUT reaches the server and is stored; the client only sees the connection fail. `down`:
    // nothing reaches the server (it stopped right after storing).
    const dropping: typeof fetch = async (input, init) => {
      if (down) throw new TypeError('fetch failed: connect ECONNREFUSED')
      const res = await fetch(input, init)
      if (init?.method === 'PUT' && dropNextPutAnswer) {
        dropNextPutAnswer = false
        down = stopAfterDrop
        await res.arrayBuffer()
        throw new TypeError('fetch failed: socket hang up')
      }
      return res
    }
    const A = client(server.url, token, repo, dropping)
    const onServer = async () => (await server.store.getRepo(repo))?.entries.get('k.md')?.content
    /** The user edits again after a push whose answer was lost: that edit waits for, then makes, the next push. */
    const nextEditIsPushed = async (text: string) => {
      await A.edit(text)
      const pull = await A.pull()
      expect(pull.conflicts).toEqual([])
      expect(pull.pending).toEqual(['k.md'])
      expect(readFileSync(A.file, 'utf8')).toBe(text)
      expect((await A.push()).pushed).toEqual(['k.md'])
      expect(await onServer()).toBe(text)
    }
    await A.edit('first\n')
    await A.push()
    await A.edit('second\n')
    dropNextPutAnswer = true
    // The retry finds the server already holding "second" (412, then equal hashes): nothing to send.
    await A.push()
    expect(await onServer()).toBe('second\n')
    await nextEditIsPushed('third\n')

    // Worse: the server stores the push and stops before answering; the retry finds nobody and the
    // sync fails. The next sync must still know the stored copy is this client's own edit.
    await A.edit('fourth\n')
    dropNextPutAnswer = true
    stopAfterDrop = true
    await expect(A.push()).rejects.toThrow()
    down = false
    expect(await onServer()).toBe('fourth\n')
    await nextEditIsPushed('fifth\n')
  })
})
