import { count, isOne } from '../../../src-shared/words.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { loadAppSettings } from '../../host/settings/app-data.js'
import { withCliSecrets } from '../../host/integrations/cli-secrets.js'
import {
  API_KEY,
  SECRET_ENV,
  SECRET_FLAG,
  SECRET_KINDS,
  secretsDir,
  secretStorageOf,
  storedSecretIds,
  storeSecret,
  teamTokenId,
  type SecretId,
  type SecretKind,
} from '../../host/settings/secrets.js'
import { teamPairKey } from '../../host/settings/project-values.js'
import { resolveTeamTarget } from '../../host/settings/team-target.js'
import { type CliIO, printJson, UsageError } from '../io.js'
import { teamServerUrlProblem } from '../../../src-shared/team-server-url.js'
import { credentialProblem } from '../../../src-shared/credentials.js'
import { teamRepoProblem } from '../../../src-shared/team-repo.js'

const KINDS: Record<string, SecretKind> = Object.fromEntries(SECRET_KINDS.map((n) => [SECRET_FLAG[n], n]))
const USAGE =
  'usage: memdir secret status [--json] | secret set team-token|api-key [--url URL --repo owner/name] | secret clear team-token|api-key'

function secretKind(arg: string | undefined): SecretKind {
  const kind = arg ? KINDS[arg] : undefined
  if (!kind) throw new UsageError(`name team-token or api-key — ${USAGE}`)
  return kind
}

/**
 * Which secret a `set` or `clear` means: the API key, or the team token of a server and repo —
 * the ones given, else this project's (its team server, its repo or git origin).
 */
function secretIdFor(
  ctx: ProjectContext,
  kind: SecretKind,
  where: { url?: string; repo?: string },
): SecretId {
  if (kind === 'apiKey') return API_KEY
  const target = resolveTeamTarget(ctx)
  const url = where.url ?? target.url
  const repo = where.repo ?? target.repo
  if (!url || !repo)
    throw new UsageError(
      'a team token belongs to a server and a repo: give --url and --repo, or run this in a project whose team server is set',
    )
  const repoProblem = teamRepoProblem(repo)
  if (repoProblem) throw new UsageError(`--repo: ${repoProblem}`)
  return teamTokenId(teamPairKey(url, repo))
}

/**
 * `memdir secret status|set|clear`: where the team tokens and the API key live. `set` is the opt-in
 * 0600 file for the command line (the value is read from stdin, never from an argument that other
 * users could see in the process list).
 */
export async function secretCommand(
  ctx: ProjectContext,
  io: CliIO,
  action: string | undefined,
  arg: string | undefined,
  opts: { json: boolean; url?: string; repo?: string },
): Promise<number> {
  if (action === 'set') {
    const urlProblem = opts.url === undefined ? undefined : teamServerUrlProblem(opts.url)
    if (urlProblem) throw new UsageError(`--url: ${urlProblem}`)
    const id = secretIdFor(ctx, secretKind(arg), opts)
    if (!io.stdin) throw new Error('no standard input')
    const value = (await io.stdin()).trim()
    if (!value) throw new UsageError(`pipe the value on stdin: printf %s "$TOKEN" | memdir secret set ${arg}`)
    const problem = credentialProblem(id.kind === 'teamToken' ? 'team token' : 'API key', value)
    if (problem) throw new UsageError(problem)
    await storeSecret(ctx, id, value)
    const of = id.kind === 'teamToken' ? ` for ${id.pair.replace('#', ' ')}` : ''
    io.stdout(`${arg}${of} kept in ${secretsDir(ctx)} (readable by you only)\n`)
    return 0
  }
  if (action === 'clear') {
    await storeSecret(ctx, secretIdFor(ctx, secretKind(arg), opts), '')
    io.stdout(`${arg} removed\n`)
    return 0
  }
  if (action !== 'status' || arg) throw new UsageError(USAGE)
  const settings = loadAppSettings(ctx)
  const resolved = await withCliSecrets(ctx)
  const target = resolveTeamTarget(resolved)
  const row = (id: SecretId | undefined, kind: SecretKind) => {
    const flag = SECRET_FLAG[kind]
    const fromEnv = Boolean(ctx.env[SECRET_ENV[kind]])
    const stored = id ? secretStorageOf(settings, id) : undefined
    const plain = kind === 'apiKey' && settings.apiKey ? 'settings' : undefined
    const value =
      id?.kind === 'teamToken'
        ? resolved.secrets?.teamTokens?.[id.pair]
        : kind === 'apiKey'
          ? resolved.secrets?.apiKey
          : undefined
    return {
      name: flag,
      ...(id?.kind === 'teamToken' ? { for: id.pair } : {}),
      storedIn: fromEnv ? 'env' : (stored ?? plain ?? 'none'),
      usableHere: Boolean(fromEnv || value || plain),
    }
  }
  const rows = [row(target.pair ? teamTokenId(target.pair) : undefined, 'teamToken'), row(API_KEY, 'apiKey')]
  const others = storedSecretIds(settings).filter((id) => id.kind === 'teamToken' && id.pair !== target.pair)
  if (opts.json) printJson(io, rows)
  else {
    const describe: Record<string, (kind: SecretKind) => string> = {
      env: (kind) => `from ${SECRET_ENV[kind]}`,
      keychain: () => 'in the desktop app (OS keychain)',
      file: () => `in a 0600 file in ${secretsDir(ctx)}`,
      settings: () => 'in the settings file as plain text (the desktop app moves it to the keychain)',
      none: () => 'not set',
    }
    for (const r of rows) {
      const kind = KINDS[r.name] as SecretKind
      const state =
        r.storedIn === 'none' ? '' : r.usableHere ? '' : ' — not reachable now (is the app running?)'
      const of =
        'for' in r && r.for
          ? ` (${r.for.replace('#', ' ')})`
          : kind === 'teamToken'
            ? ' (this project has no team server)'
            : ''
      io.stdout(`${r.name}${of}: ${describe[r.storedIn]!(kind)}${state}\n`)
    }
    if (others.length)
      io.stdout(
        `${count(others.length, 'team token')} of other servers or repos ${isOne(others.length) ? 'is' : 'are'} kept too (\`memdir secret status\` in their projects)\n`,
      )
  }
  return 0
}
