import type { ProjectContext } from '../../core/paths/context.js'
import { loadAppSettings } from '../../host/app-data.js'
import { withCliSecrets } from '../../host/cli-secrets.js'
import {
  SECRET_ENV,
  SECRET_FLAG,
  SECRET_NAMES,
  secretMarkers,
  secretsDir,
  storeSecret,
  type SecretName,
} from '../../host/secrets.js'
import { type CliIO, printJson, UsageError } from '../io.js'

const NAMES: Record<string, SecretName> = Object.fromEntries(SECRET_NAMES.map((n) => [SECRET_FLAG[n], n]))
const USAGE =
  'usage: memdir secret status [--json] | secret set team-token|api-key | secret clear team-token|api-key'

function secretName(arg: string | undefined): SecretName {
  const name = arg ? NAMES[arg] : undefined
  if (!name) throw new UsageError(`name team-token or api-key — ${USAGE}`)
  return name
}

/**
 * `memdir secret status|set|clear`: where the team token and API key live. `set` is the opt-in
 * 0600 file for the command line (the value is read from stdin, never from an argument that other
 * users could see in the process list).
 */
export async function secretCommand(
  ctx: ProjectContext,
  io: CliIO,
  action: string | undefined,
  arg: string | undefined,
  json: boolean,
): Promise<number> {
  if (action === 'set') {
    const name = secretName(arg)
    if (!io.stdin) throw new Error('no standard input')
    const value = (await io.stdin()).trim()
    if (!value) throw new UsageError(`pipe the value on stdin: printf %s "$TOKEN" | memdir secret set ${arg}`)
    await storeSecret(ctx, name, value)
    io.stdout(`${arg} kept in ${secretsDir(ctx)} (readable by you only)\n`)
    return 0
  }
  if (action === 'clear') {
    const name = secretName(arg)
    await storeSecret(ctx, name, '')
    io.stdout(`${arg} removed\n`)
    return 0
  }
  if (action !== 'status' || arg) throw new UsageError(USAGE)
  const settings = loadAppSettings(ctx)
  const markers = secretMarkers(settings)
  const resolved = await withCliSecrets(ctx)
  const rows = Object.entries(NAMES).map(([flag, name]) => {
    const where = ctx.env[SECRET_ENV[name]]
      ? 'env'
      : (markers[name] ?? (settings[name] ? 'settings' : undefined))
    const usable = Boolean(ctx.env[SECRET_ENV[name]] || resolved.secrets?.[name] || settings[name])
    return { name: flag, storedIn: where ?? 'none', usableHere: usable }
  })
  if (json) printJson(io, rows)
  else {
    const describe = {
      env: (n: SecretName) => `from ${SECRET_ENV[n]}`,
      keychain: () => 'in the desktop app (OS keychain)',
      file: () => `in a 0600 file in ${secretsDir(ctx)}`,
      settings: () => 'in the settings file as plain text (the desktop app moves it to the keychain)',
      none: () => 'not set',
    }
    for (const r of rows) {
      const name = NAMES[r.name] as SecretName
      const state =
        r.storedIn === 'none' ? '' : r.usableHere ? '' : ' — not reachable now (is the app running?)'
      io.stdout(`${r.name}: ${describe[r.storedIn as keyof typeof describe](name)}${state}\n`)
    }
  }
  return 0
}
