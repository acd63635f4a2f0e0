import type { ProjectContext, SecretValues } from '../../core/paths/context.js'
import { getAppDataDir, loadAppSettings } from '../settings/app-data.js'
import {
  readStoredSecrets,
  SECRET_ENV,
  SECRET_FLAG,
  SECRET_LABEL,
  secretStorageOf,
  storedSecretIds,
  type SecretId,
} from '../settings/secrets.js'

/**
 * The API key and team tokens for a process outside the desktop app (the CLI, hooks, MCP): the
 * environment first (left to the config), then the 0600 files the user chose, then the running
 * app, which alone can open the keychain, asked over its user-only socket.
 */
export async function withCliSecrets(ctx: ProjectContext, timeoutMs = 800): Promise<ProjectContext> {
  const settings = loadAppSettings(ctx)
  const wanted = storedSecretIds(settings).filter((id) => !ctx.env[SECRET_ENV[id.kind]])
  if (!wanted.length) return ctx
  const found = readStoredSecrets(ctx, undefined, settings)
  const secrets = { apiKey: found.apiKey, teamTokens: { ...found.teamTokens } }
  for (const id of wanted) {
    if (secretStorageOf(settings, id) !== 'keychain') continue
    if (id.kind === 'apiKey' ? secrets.apiKey : secrets.teamTokens[id.pair]) continue
    // The socket client (node:net) loads only when the app has to be asked.
    const { agentSocketPath, offerAgentJob } = await import('./agent-socket.js')
    const socket = agentSocketPath(getAppDataDir(ctx))
    const request = {
      type: 'secret' as const,
      name: id.kind,
      ...(id.kind === 'teamToken' ? { pair: id.pair } : {}),
    }
    const reply = await offerAgentJob(socket, request, timeoutMs)
    if (!reply.accepted || !reply.value) {
      if (!reply.accepted) break // no app answers: asking again for the next one would only wait again
      continue
    }
    if (id.kind === 'apiKey') secrets.apiKey = reply.value
    else secrets.teamTokens[id.pair] = reply.value
  }
  const merged: SecretValues = {
    ...ctx.secrets,
    ...(secrets.apiKey ? { apiKey: secrets.apiKey } : {}),
    teamTokens: { ...ctx.secrets?.teamTokens, ...secrets.teamTokens },
  }
  return { ...ctx, secrets: merged }
}

/** Why a secret the settings name is missing here, for an error message (undefined: not the reason). */
export function keychainOnlyHint(ctx: ProjectContext, id: SecretId): string | undefined {
  if (secretStorageOf(loadAppSettings(ctx), id) !== 'keychain') return undefined
  const have = id.kind === 'apiKey' ? ctx.secrets?.apiKey : ctx.secrets?.teamTokens?.[id.pair]
  if (have) return undefined
  return (
    `the ${SECRET_LABEL[id.kind]} is in the desktop app's keychain and the app is not running: ` +
    `start Memdir, set ${SECRET_ENV[id.kind]}, or keep a copy for the command line with \`memdir secret set ${SECRET_FLAG[id.kind]}\``
  )
}
