import type { ProjectContext } from '../core/paths/context.js'
import { getTeamMemoryEnablement } from '../core/paths/enablement.js'
import { getTeamMemPath } from '../core/paths/team-agent-paths.js'
import { TeamApiClient } from '../core/team/api-client.js'
import { getRepoSlug } from '../core/team/repo-slug.js'
import { createSyncState, type SyncDeps } from '../core/team/sync.js'
import { loadEffectiveConfig } from './config.js'

export type TeamSetup =
  { ok: true; deps: SyncDeps; url: string; repo: string } | { ok: false; reason: string }

/** Server URL and token from env (MEMDIR_TEAM_URL / MEMDIR_TEAM_TOKEN) or app settings; repo from git origin. */
export function resolveTeamSetup(
  ctx: ProjectContext,
  overrides: { url?: string; token?: string } = {},
): TeamSetup {
  const team = getTeamMemoryEnablement(ctx)
  if (!team.enabled) return { ok: false, reason: `team memory is off: ${team.reason}` }
  const config = loadEffectiveConfig(ctx)
  const url = overrides.url || config.teamUrl.value
  const token = overrides.token || config.teamToken.value
  if (!url) return { ok: false, reason: 'no team server configured (MEMDIR_TEAM_URL or settings)' }
  if (!token) return { ok: false, reason: 'no team token configured (MEMDIR_TEAM_TOKEN or settings)' }
  const repo = config.teamRepo.value || getRepoSlug(ctx.projectRoot)
  if (!repo) return { ok: false, reason: 'cannot tell the repo: no git origin remote (set MEMDIR_TEAM_REPO)' }
  return {
    ok: true,
    url,
    repo,
    deps: {
      api: new TeamApiClient({ baseUrl: url, token }),
      repo,
      teamDir: getTeamMemPath(ctx),
      state: createSyncState(),
    },
  }
}
