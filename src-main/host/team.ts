import { join } from 'node:path'
import type { HistoryStore } from '../core/history/history-store.js'
import type { RecordedWrite } from '../core/history/recorded-write.js'
import { reconcileHistory } from '../core/history/recorder.js'
import type { ProjectContext } from '../core/paths/context.js'
import { getTeamMemoryEnablement } from '../core/paths/enablement.js'
import { sanitizePath } from '../core/paths/sanitize.js'
import { getTeamMemPath, TEAM_DIRNAME } from '../core/paths/team-agent-paths.js'
import { TeamApiClient } from '../core/team/api-client.js'
import { getRepoSlug } from '../core/team/repo-slug.js'
import { SyncBase } from '../core/team/sync-base.js'
import { createSyncState, type SyncDeps } from '../core/team/sync.js'
import { getAppDataDir } from './app-data.js'
import { keychainOnlyHint } from './cli-secrets.js'
import { loadEffectiveConfig } from './config.js'

export type TeamSetup =
  | { ok: true; deps: SyncDeps; url: string; repo: string }
  /** off: team memory is switched off; not-configured: on, but a server, token or repo is missing. */
  | { ok: false; reason: string; state: 'off' | 'not-configured' }

/** How a sync's writes reach history: its own recorded write, and keeping a local version it replaces. */
export interface TeamHistory {
  store: HistoryStore
  memoryDir: string
  /** The recorded write for one sync run (author team-pull). */
  writerFor: (runId: string) => RecordedWrite
}

/** Where the last agreeing checksums of this team dir and repo live (shared by the app and the CLI). */
export function syncBaseFor(ctx: ProjectContext, repo: string): SyncBase {
  const name = `${sanitizePath(getTeamMemPath(ctx))}--${repo.replace(/[^A-Za-z0-9._-]/g, '-')}.json`
  return new SyncBase(join(getAppDataDir(ctx), 'team-sync', name))
}

/**
 * Server URL and token from the effective configuration (env over settings), repo from it or the
 * git origin; with `history`, pulls record their writes as team-pull, and a local version a pull
 * replaces is first kept in history as the user's.
 */
export function resolveTeamSetup(
  ctx: ProjectContext,
  overrides: { url?: string; token?: string } = {},
  history?: TeamHistory,
): TeamSetup {
  const team = getTeamMemoryEnablement(ctx)
  if (!team.enabled) return { ok: false, state: 'off', reason: `team memory is off: ${team.reason}` }
  const config = loadEffectiveConfig(ctx)
  const url = overrides.url || config.teamUrl.value
  const token = overrides.token || config.teamToken.value
  const missing = (reason: string): TeamSetup => ({ ok: false, state: 'not-configured', reason })
  if (!url) return missing('no team server configured (MEMDIR_TEAM_URL or settings)')
  if (!token)
    return missing(
      keychainOnlyHint(ctx, 'teamToken') ?? 'no team token configured (MEMDIR_TEAM_TOKEN or settings)',
    )
  const repo = config.teamRepo.value || getRepoSlug(ctx.projectRoot)
  if (!repo) return missing('cannot tell the repo: no git origin remote (set MEMDIR_TEAM_REPO)')
  const deps: SyncDeps = {
    api: new TeamApiClient({ baseUrl: url, token }),
    repo,
    teamDir: getTeamMemPath(ctx),
    state: createSyncState(),
    base: syncBaseFor(ctx, repo),
  }
  if (history) {
    deps.record = history.writerFor(`pull-${Date.now()}`)
    deps.beforeOverwrite = (key) => keepLocalVersion(history, `${TEAM_DIRNAME}/${key}`)
  }
  return { ok: true, url, repo, deps }
}

/** Records the file on disk as the user's (if history lacks it) and returns that version's id. */
export async function keepLocalVersion(history: TeamHistory, rel: string): Promise<number | undefined> {
  await reconcileHistory(history.store, history.memoryDir, 'user', { paths: [rel] })
  return (await history.store.list({ path: rel })).at(-1)?.id
}
