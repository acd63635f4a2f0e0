import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTeamMemPath } from '../../src-main/core/paths/team-agent-paths.js'
import { TeamApiClient } from '../../src-main/core/team/api-client.js'
import { readLocalTeamEntries } from '../../src-main/core/team/local-entries.js'
import { openHistory } from '../../src-main/host/history/recording.js'
import { createProjectContext } from '../../src-main/host/settings/project.js'
import { percentile } from '../../bench/lib.js'
import { cliSession } from '../helpers/cli.js'
import { type FaultRates, seededRandom, startFaultProxy } from './fault-proxy.js'
import { TeamServerProcess } from './server-process.js'

export interface TeamLoadOptions {
  /** PostgreSQL for every instance; without it one SQLite file. */
  databaseUrl?: string
  instances: number
  clients: number
  rounds: number
  sharedKeys: number
  ownKeys: number
  faults: FaultRates
  /** Kill one instance (SIGKILL) once this share of all rounds is done, and start it again after downMs. */
  killAt: number
  downMs: number
  seed: number
}

export interface TeamLoadReport {
  backend: 'postgres' | 'sqlite'
  instances: number
  clients: number
  rounds: number
  edits: number
  seconds: number
  requests: number
  requestsPerSecond: number
  serverP50Ms: number
  serverP95Ms: number
  syncs: number
  syncP50Ms: number
  syncP95Ms: number
  injected: { error500: number; dropBefore: number; dropAfter: number; badGateway: number }
  /** Pull conflicts the clients reported (both sides changed a key). */
  conflicts: number
  /** Edits that never reached the server, each kept in its client's history before a pull replaced it. */
  lostRaces: number
  /** Edits neither on the server nor kept in history: must be 0. */
  unaccounted: { client: number; key: string; content: string }[]
  /** Clients whose team dir differs from the server at the end: must be empty. */
  diverged: { client: number; keys: string[] }[]
  /** Own keys (only their client writes them) whose server copy is not that client's last edit. */
  ownKeysWrong: string[]
  killed: boolean
}

interface Client {
  n: number
  env: Record<string, string>
  project: string
  teamDir: string
  ownKeys: string[]
  /** Conflicts its syncs reported, with the history version that kept the local content. */
  conflicts: { key: string; localVersion?: number }[]
}

interface Edit {
  client: number
  key: string
  content: string
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `memdir …` in this process with the client's own env (its own HOME and project dir). */
async function memdir(client: Client, args: string[]) {
  const session = cliSession(client.env, client.project)
  const code = await session.run(args)
  return { code, ...session.io }
}

async function issueToken(opts: TeamLoadOptions, dataFile: string, repo: string): Promise<string> {
  const env = { HOME: tmpdir(), ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}) }
  const admin = cliSession(env, tmpdir())
  if ((await admin.run(['team-server', 'token', 'add', '--repo', repo, '--data', dataFile])) !== 0)
    throw new Error(`token add failed: ${admin.io.stderr}`)
  return admin.io.stdout.trim()
}

/**
 * A lost race as the user sees it: the client's sync reported a conflict on the key whose kept
 * history version holds this content, and a pull then replaced exactly that content.
 */
async function keptAsLostRace(client: Client, key: string, content: string): Promise<boolean> {
  const { store } = openHistory(createProjectContext({ cwd: client.project, env: client.env }))
  const entries = await store.list({ path: `team/${key}` })
  for (const reported of client.conflicts.filter((c) => c.key === key)) {
    const kept = entries.find((e) => e.id === reported.localVersion)
    if (!kept?.after || (await store.blob(kept.after)) !== content) continue
    if (entries.some((e) => e.id > kept.id && e.author === 'team-pull' && e.before === kept.after))
      return true
  }
  return false
}

/**
 * N clients (each its own HOME, project and `memdir sync`) make random edits to shared and own
 * team-memory keys through a fault-injecting proxy in front of `instances` team-server processes,
 * one of which is killed and restarted mid-run; then everyone syncs until quiet and each edit is
 * accounted for: accepted by a server (seen by the proxy), or kept in history as a lost race.
 */
export async function runTeamLoad(opts: TeamLoadOptions): Promise<TeamLoadReport> {
  const root = mkdtempSync(join(tmpdir(), 'memdir-team-load-'))
  const random = seededRandom(opts.seed)
  const repo = `load/run-${opts.seed}-${Date.now().toString(36)}`
  const dataFile = join(root, 'team.sqlite')
  const servers = Array.from(
    { length: opts.instances },
    () => new TeamServerProcess({ databaseUrl: opts.databaseUrl, dataFile, env: { HOME: root } }),
  )
  const proxy = await startFaultProxy(
    () => servers.map((s) => s.url),
    opts.faults,
    seededRandom(opts.seed + 1),
  )
  try {
    const token = await issueToken(opts, dataFile, repo)
    for (const s of servers) await s.start()

    const clients: Client[] = Array.from({ length: opts.clients }, (_, n) => {
      const home = join(root, `client-${n}`, 'home')
      const project = join(root, `client-${n}`, 'project')
      mkdirSync(join(home, '.claude'), { recursive: true })
      mkdirSync(project, { recursive: true })
      const env = {
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        MEMDIR_TEAM_MEMORY: '1',
        MEMDIR_TEAM_URL: proxy.url,
        MEMDIR_TEAM_TOKEN: token,
        MEMDIR_TEAM_REPO: repo,
      }
      const teamDir = getTeamMemPath(createProjectContext({ cwd: project, env }))
      const ownKeys = Array.from({ length: opts.ownKeys }, (_, k) => `client-${n}/own-${k}.md`)
      return { n, env, project, teamDir, ownKeys, conflicts: [] }
    })
    const sharedKeys = Array.from({ length: opts.sharedKeys }, (_, k) => `shared-${k}.md`)

    const edits: Edit[] = []
    const syncMs: number[] = []
    let conflicts = 0
    let roundsDone = 0
    let killed = false
    const totalRounds = opts.rounds * opts.clients

    /** Syncs until a run succeeds with nothing left unsettled (a push-side conflict is settled by the next pull). */
    const settle = async (c: Client) => {
      let last = ''
      for (let attempt = 0; attempt < 25; attempt++) {
        const t = performance.now()
        const r = await memdir(c, ['sync', '--json'])
        syncMs.push(performance.now() - t)
        if (r.code === 0) {
          const out = JSON.parse(r.stdout) as {
            pulled: string[]
            pushed: string[]
            conflicts: { key: string; localVersion?: number }[]
            skipped: { kind: string }[]
          }
          conflicts += out.conflicts.length
          c.conflicts.push(...out.conflicts)
          if (!out.skipped.some((s) => s.kind === 'conflict')) return out
          last = 'a push-side conflict'
        } else last = r.stderr.trim()
        await sleep(50 + random() * 150)
      }
      throw new Error(`client ${c.n} could not sync: ${last}`)
    }

    const chaos = (async () => {
      while (roundsDone < totalRounds * opts.killAt) await sleep(20)
      const victim = servers[servers.length - 1] as TeamServerProcess
      await victim.kill()
      killed = true
      await sleep(opts.downMs)
      await victim.start()
    })()

    const t0 = performance.now()
    await Promise.all(
      clients.map(async (c) => {
        await settle(c)
        for (let round = 0; round < opts.rounds; round++) {
          const key =
            random() < 0.5
              ? (sharedKeys[Math.floor(random() * sharedKeys.length)] as string)
              : (c.ownKeys[Math.floor(random() * c.ownKeys.length)] as string)
          const content = `---\nname: ${key}\ndescription: load test entry\ntype: project\n---\nEdited by client ${c.n} in round ${round} (${Math.floor(random() * 1e9).toString(36)}).\n`
          const path = join(c.teamDir, key)
          mkdirSync(join(path, '..'), { recursive: true })
          writeFileSync(path, content)
          edits.push({ client: c.n, key, content })
          await settle(c)
          roundsDone++
        }
      }),
    )
    await chaos

    // Everyone syncs until a whole pass moves nothing: then every client should hold the server's state.
    for (let pass = 0; pass < 8; pass++) {
      let moved = 0
      for (const c of clients) {
        const out = await settle(c)
        moved += out.pulled.length + out.pushed.length
      }
      if (!moved) break
    }
    const seconds = (performance.now() - t0) / 1000

    const direct = new TeamApiClient({ baseUrl: servers[0]!.url, token })
    const got = await direct.get(repo)
    const server = new Map<string, string>(
      got.status === 200 ? Object.entries(got.doc.content.entries ?? {}) : [],
    )
    const diverged: TeamLoadReport['diverged'] = []
    for (const c of clients) {
      const { entries } = await readLocalTeamEntries(c.teamDir, { scan: false })
      const keys = [...new Set([...entries.keys(), ...server.keys()])].filter(
        (k) => entries.get(k) !== server.get(k),
      )
      if (keys.length) diverged.push({ client: c.n, keys })
    }

    const acceptedSet = new Set(
      proxy.accepted.flatMap((e) => Object.entries(e).map(([k, v]) => `${k}\0${v}`)),
    )
    const unaccounted: Edit[] = []
    let lostRaces = 0
    for (const e of edits) {
      if (acceptedSet.has(`${e.key}\0${e.content}`)) continue
      const c = clients[e.client] as Client
      if (await keptAsLostRace(c, e.key, e.content)) lostRaces++
      else unaccounted.push(e)
    }
    const ownKeysWrong: string[] = []
    for (const c of clients)
      for (const key of c.ownKeys) {
        const last = edits.filter((e) => e.key === key).at(-1)
        if (last && server.get(key) !== last.content) ownKeysWrong.push(key)
      }

    return {
      backend: opts.databaseUrl ? 'postgres' : 'sqlite',
      instances: opts.instances,
      clients: opts.clients,
      rounds: opts.rounds,
      edits: edits.length,
      seconds,
      requests: proxy.stats.requests,
      requestsPerSecond: proxy.stats.requests / seconds,
      serverP50Ms: percentile(sorted(proxy.stats.upstreamMs), 50),
      serverP95Ms: percentile(sorted(proxy.stats.upstreamMs), 95),
      syncs: syncMs.length,
      syncP50Ms: percentile(sorted(syncMs), 50),
      syncP95Ms: percentile(sorted(syncMs), 95),
      injected: {
        error500: proxy.stats.error500,
        dropBefore: proxy.stats.dropBefore,
        dropAfter: proxy.stats.dropAfter,
        badGateway: proxy.stats.badGateway,
      },
      conflicts,
      lostRaces,
      unaccounted,
      diverged,
      ownKeysWrong,
      killed,
    }
  } finally {
    await proxy.close()
    for (const s of servers) await s.stop()
    rmSync(root, { recursive: true, force: true })
  }
}
