import { count } from '../../../src-shared/words.js'
import { closeGracefully, createTeamServer, listen } from '../../../src-server/http-server.js'
import { defaultDataFile, openTeamStore } from '../../../src-server/open-store.js'
import { storedRepoName, type TeamStore } from '../../../src-server/store.js'
import { memoryNameProblem } from '../../../src-shared/memory-names.js'
import { describeFindings, scanForSecrets, secretsInNames } from '../../../src-shared/secret-scan.js'
import { teamRepoProblem } from '../../../src-shared/team-repo.js'
import { type CliIO, printJson, UsageError } from '../io.js'

export interface TeamServerArgs {
  sub: string[]
  port?: string
  host?: string
  data?: string
  repo?: string
  expires?: string
  maxBody?: string
  maxEntries?: string
  json?: boolean
  trustProxy?: boolean
}

const TOKEN_USAGE =
  'usage: memdir team-server token add --repo owner/repo [--expires 30d] | token list [--json] | token revoke ID'

/** The longest life a token is given: past it the date is no date (`Invalid time value`). */
const MAX_TOKEN_DAYS = 36_500

/** `30d`, `12h`, `90m` → milliseconds; a token that is expired when printed, or never, is refused. */
function parseDuration(s: string): number {
  const m = /^(\d+)([dhm])$/.exec(s.trim())
  if (!m) throw new UsageError('--expires takes a duration like 30d, 12h or 90m')
  const ms = Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm']
  if (ms === 0) throw new UsageError(`--expires ${s.trim()} would print a token that has already expired`)
  if (ms > MAX_TOKEN_DAYS * 86_400_000)
    throw new UsageError(
      `--expires ${s.trim()} is longer than ${MAX_TOKEN_DAYS.toLocaleString('en')} days: leave --expires out for a token that does not expire`,
    )
  return ms
}

/** `--repo`, given and by the one repo rule (src-shared/team-repo.ts). */
function checkRepoFlag(repo: string | undefined): asserts repo is string {
  if (!repo) throw new UsageError('--repo owner/repo is required')
  const problem = teamRepoProblem(repo)
  if (problem) throw new UsageError(`--repo: ${problem}`)
}

/**
 * The largest request body a server may be set to take: the body is read into one string, and a
 * V8 string holds at most 2^29 - 24 characters (~512 MiB), so a larger limit would let a request
 * through the limit and then fail inside the server. A push is batched at 200 KB by the client.
 */
const MAX_BODY_LIMIT = 256 * 1024 * 1024

function positiveInt(
  v: string | undefined,
  flag: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (v === undefined) return fallback
  const n = Number(v)
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number`)
  if (n > max) throw new UsageError(`${flag} may be at most ${max.toLocaleString('en')}`)
  return n
}

async function tokenCommand(io: CliIO, store: TeamStore, args: TeamServerArgs): Promise<number> {
  const [, action, id] = args.sub
  if (action === 'add') {
    checkRepoFlag(args.repo)
    const expiresAt = args.expires ? Date.now() + parseDuration(args.expires) : undefined
    io.stdout((await store.addToken([args.repo], expiresAt)) + '\n')
    return 0
  }
  if (action === 'list') {
    const tokens = await store.listTokens()
    if (args.json) printJson(io, tokens)
    else {
      const now = Date.now()
      const state = (t: (typeof tokens)[number]) =>
        t.revokedAt ? 'revoked' : t.expiresAt && Date.parse(t.expiresAt) <= now ? 'expired' : 'active'
      const rows = tokens.map(
        (t) =>
          `${t.id}  ${state(t).padEnd(7)}  ${t.createdAt.slice(0, 10)}  ${(t.expiresAt?.slice(0, 10) ?? 'never').padEnd(10)}  ${t.repos.join(',')}`,
      )
      io.stdout(['id            state    created     expires     repos', ...rows].join('\n') + '\n')
    }
    return 0
  }
  if (action === 'revoke') {
    if (!id) throw new UsageError('token revoke needs the ID that `token list` shows')
    if (!(await store.revokeToken(id))) {
      io.stderr(`no active token with id ${id}\n`)
      return 1
    }
    io.stdout(`revoked ${id}\n`)
    return 0
  }
  throw new UsageError(TOKEN_USAGE)
}

const KEY_USAGE =
  'usage: memdir team-server key list --repo owner/repo [--json] | key delete --repo owner/repo KEY'

/**
 * `key list` shows every stored key of a repo, flagging those no client can write (an older server
 * accepted them); `key delete` removes one, whatever its name.
 */
async function keyCommand(io: CliIO, store: TeamStore, args: TeamServerArgs): Promise<number> {
  const [, action, key, ...rest] = args.sub
  // Any stored name: an older server took repos the rule now refuses, and they can be cleaned up.
  if (!args.repo) throw new UsageError('--repo owner/repo is required')
  const repo = await storedRepoName(store, args.repo)
  if (action === 'list') {
    const snap = await store.getRepo(repo)
    const names = [...(snap?.entries.keys() ?? [])].sort()
    const inNames = await secretsInNames(names)
    const keys = []
    for (const k of names) {
      const content = snap!.entries.get(k)!.content
      const secrets = [...(inNames.get(k) ?? []), ...(await scanForSecrets(content))]
      const problem =
        memoryNameProblem(k)?.message ??
        (secrets.length ? `holds ${describeFindings(secrets)}: delete it` : undefined)
      keys.push({ key: k, bytes: Buffer.byteLength(content), ...(problem ? { problem } : {}) })
    }
    if (args.json) printJson(io, keys)
    else
      io.stdout(
        keys
          .map(
            (k) =>
              `${JSON.stringify(k.key)}  ${count(k.bytes, 'byte')}${k.problem ? `  (${k.problem})` : ''}`,
          )
          .join('\n') + (keys.length ? '\n' : `${repo} holds no keys\n`),
      )
    return 0
  }
  if (action === 'delete') {
    if (key === undefined || rest.length)
      throw new UsageError('key delete takes one KEY (as `key list` prints it)')
    const r = await store.deleteKeys(repo, [key], undefined)
    if (r.status !== 'ok') {
      io.stderr(`${repo} has no key ${JSON.stringify(key)}\n`)
      return 1
    }
    io.stdout(`deleted ${JSON.stringify(key)} from ${repo}\n`)
    return 0
  }
  throw new UsageError(KEY_USAGE)
}

/** `memdir team-server [--port P] [--data FILE]` and `memdir team-server token …|key …`. */
export async function teamServerCommand(
  io: CliIO,
  args: TeamServerArgs,
  signal: AbortSignal,
): Promise<number> {
  const dataFile = args.data ?? defaultDataFile(io.env)
  const maxBodyBytes = positiveInt(args.maxBody, '--max-body', 1024 * 1024, MAX_BODY_LIMIT)
  const maxEntries = positiveInt(args.maxEntries, '--max-entries', 10_000)
  const { store, kind } = await openTeamStore({ databaseUrl: io.env.DATABASE_URL, dataFile })
  try {
    if (args.sub[0] === 'token') return await tokenCommand(io, store, args)
    if (args.sub[0] === 'key') return await keyCommand(io, store, args)
    if (args.sub.length) throw new UsageError(`unknown team-server command: ${args.sub.join(' ')}`)
    const port = args.port === undefined ? 8787 : Number(args.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError('--port must be a port number')
    const server = createTeamServer({
      store,
      maxBodyBytes,
      maxEntries,
      trustProxy: args.trustProxy,
      accessLog: (line) => io.stdout(line + '\n'),
    })
    const url = await listen(server, port, args.host ?? '127.0.0.1')
    io.stdout(`team memory server on ${url} (${kind}, schema v${await store.schemaVersion()})\n`)
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve()
      signal.addEventListener('abort', () => resolve(), { once: true })
    })
    await closeGracefully(server)
    return 0
  } finally {
    // Only after the last in-flight request: the pool (or the SQLite file) closes.
    await store.close()
  }
}
