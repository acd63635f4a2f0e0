import { resolve } from 'node:path'
import type { Env, ProjectContext, SecretValues } from '../../core/paths/context.js'
import { loadAppSettings } from './app-data.js'

export interface ProjectOptions {
  cwd?: string
  env?: Env
  flagSettingsPath?: string
  /** The team tokens and API key from the keychain or a 0600 file (see host/settings/secrets.ts). */
  secrets?: Readonly<SecretValues>
  /** Where memory files are read: the entry point's choice (ProjectContext.scan). */
  scan?: ProjectContext['scan']
}

/** Builds the context every service of one workspace shares, from explicit inputs and Memdir's settings. */
export function createProjectContext(opts: ProjectOptions = {}): ProjectContext {
  const env = opts.env ?? process.env
  const ctx: ProjectContext = {
    projectRoot: resolve(opts.cwd ?? process.cwd()),
    env,
    flagSettingsPath: opts.flagSettingsPath ? resolve(opts.flagSettingsPath) : undefined,
    policySettingsPath: env.MEMDIR_POLICY_SETTINGS || undefined,
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
    ...(opts.scan ? { scan: opts.scan } : {}),
  }
  const teamSwitch = loadAppSettings(ctx).teamMemoryEnabled
  return teamSwitch === undefined ? ctx : { ...ctx, teamMemorySwitch: teamSwitch }
}
