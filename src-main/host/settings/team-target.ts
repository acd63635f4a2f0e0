import type { Env, ProjectContext } from '../../core/paths/context.js'
import { getRepoSlug } from '../../core/team/repo-slug.js'
import { loadAppSettings } from './app-data.js'
import { loadEffectiveConfig } from './config.js'
import { teamPairKey } from './project-values.js'
import { secretStorageOf, teamTokenId } from './secrets.js'

/** A project's team server, repo and token, each with where it came from. */
export interface TeamTarget {
  url?: string
  repo?: string
  /** The repo when none is set: the project's git origin. */
  repoDefault?: string
  /** The key its token is kept under (server and repo), once both are known. */
  pair?: string
  token?: string
  tokenFrom?: 'env' | 'keychain' | 'file'
}

/**
 * This project's team target: server URL and repo from the environment or this project's own
 * values (never another project's), the repo defaulting to its git origin, and the token of that
 * server and repo (the environment's, or the one kept for the pair).
 */
export function resolveTeamTarget(ctx: ProjectContext): TeamTarget {
  const config = loadEffectiveConfig(ctx)
  const url = config.teamUrl.value
  const repoDefault = getRepoSlug(ctx.projectRoot)
  const repo = config.teamRepo.value || repoDefault
  const pair = url && repo ? teamPairKey(url, repo) : undefined
  const envToken = ctx.env.MEMDIR_TEAM_TOKEN || undefined
  const kept = pair ? ctx.secrets?.teamTokens?.[pair] : undefined
  const storage = pair ? secretStorageOf(loadAppSettings(ctx), teamTokenId(pair)) : undefined
  return {
    url,
    repo,
    repoDefault,
    pair,
    token: envToken ?? kept,
    tokenFrom: envToken ? 'env' : kept ? storage : undefined,
  }
}

/** The environment variables that name a team server, repo or token: each names one project's. */
export const TEAM_TARGET_ENV = ['MEMDIR_TEAM_URL', 'MEMDIR_TEAM_REPO', 'MEMDIR_TEAM_TOKEN'] as const

/**
 * `env` without the team target variables: what a process that opens several projects (the desktop
 * app, `memdir web`) gives every project but the one it was started for. Set in a shell for one
 * project, they would otherwise send every other project's team memory to that project's repo, with
 * its token, and pull that repo into the other project's `team/`.
 */
export function withoutTeamTarget(env: Env): Env {
  if (!TEAM_TARGET_ENV.some((k) => env[k] !== undefined)) return env
  const out: Record<string, string | undefined> = { ...env }
  for (const k of TEAM_TARGET_ENV) delete out[k]
  return out
}
