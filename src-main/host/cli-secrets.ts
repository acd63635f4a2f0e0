import type { ProjectContext, SecretValues } from '../core/paths/context.js'
import { getAppDataDir, loadAppSettings } from './app-data.js'
import {
  readStoredSecrets,
  SECRET_ENV,
  SECRET_FLAG,
  SECRET_LABEL,
  SECRET_NAMES,
  secretMarkers,
  type SecretName,
} from './secrets.js'

/**
 * The team token and API key for a process outside the desktop app (the CLI, hooks, MCP): the
 * environment first (left to the config), then the 0600 file the user chose, then the running
 * app, which alone can open the keychain, asked over its user-only socket.
 */
export async function withCliSecrets(ctx: ProjectContext, timeoutMs = 800): Promise<ProjectContext> {
  const settings = loadAppSettings(ctx)
  const markers = secretMarkers(settings)
  const wanted = SECRET_NAMES.filter((name) => markers[name] && !ctx.env[SECRET_ENV[name]])
  if (!wanted.length) return ctx
  const secrets: SecretValues = { ...readStoredSecrets(ctx, undefined, settings) }
  for (const name of wanted) {
    if (markers[name] !== 'keychain' || secrets[name]) continue
    // The socket client (node:net) loads only when the app has to be asked.
    const { agentSocketPath, offerAgentJob } = await import('./agent-socket.js')
    const socket = agentSocketPath(getAppDataDir(ctx))
    const reply = await offerAgentJob(socket, { type: 'secret', name }, timeoutMs)
    if (reply.accepted && reply.value) secrets[name] = reply.value
  }
  return { ...ctx, secrets: { ...ctx.secrets, ...secrets } }
}

/** Why a secret the settings name is missing here, for an error message (undefined: not the reason). */
export function keychainOnlyHint(ctx: ProjectContext, name: SecretName): string | undefined {
  if (secretMarkers(loadAppSettings(ctx))[name] !== 'keychain' || ctx.secrets?.[name]) return undefined
  return (
    `the ${SECRET_LABEL[name]} is in the desktop app's keychain and the app is not running: ` +
    `start Memdir, set ${SECRET_ENV[name]}, or keep a copy for the command line with \`memdir secret set ${SECRET_FLAG[name]}\``
  )
}
