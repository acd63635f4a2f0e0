import { resolve } from 'node:path'
import type { Env, ProjectContext } from '../core/paths/context.js'

export interface ProjectOptions {
  cwd?: string
  env?: Env
  flagSettingsPath?: string
}

/** Builds the context every service of one workspace shares, from explicit inputs. */
export function createProjectContext(opts: ProjectOptions = {}): ProjectContext {
  const env = opts.env ?? process.env
  return {
    projectRoot: resolve(opts.cwd ?? process.cwd()),
    env,
    flagSettingsPath: opts.flagSettingsPath ? resolve(opts.flagSettingsPath) : undefined,
    policySettingsPath: env.MEMDIR_POLICY_SETTINGS || undefined,
  }
}
