import { resolve } from 'node:path'
import type { Env, ProjectContext } from '../core/paths/context.js'
import { loadAppSettings } from './app-data.js'

export interface ProjectOptions {
  cwd?: string
  env?: Env
  flagSettingsPath?: string
}

/** Builds the context every service of one workspace shares, from explicit inputs and Memdir's settings. */
export function createProjectContext(opts: ProjectOptions = {}): ProjectContext {
  const env = opts.env ?? process.env
  const ctx: ProjectContext = {
    projectRoot: resolve(opts.cwd ?? process.cwd()),
    env,
    flagSettingsPath: opts.flagSettingsPath ? resolve(opts.flagSettingsPath) : undefined,
    policySettingsPath: env.MEMDIR_POLICY_SETTINGS || undefined,
  }
  const teamSwitch = loadAppSettings(ctx).teamMemoryEnabled
  return teamSwitch === undefined ? ctx : { ...ctx, teamMemorySwitch: teamSwitch }
}
