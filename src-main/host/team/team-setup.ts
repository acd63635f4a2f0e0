import { join } from 'node:path'
import type { HistoryStore } from '../../core/history/history-store.js'
import type { RecordedWrite } from '../../core/store/recorded-write.js'
import { reconcileHistory } from '../../core/history/recorder.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { getTeamMemoryEnablement } from '../../core/paths/enablement.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { getTeamMemPath, TEAM_DIRNAME } from '../../core/paths/team-agent-paths.js'
import { TeamApiClient } from '../../core/team/api-client.js'
import { SyncBase } from '../../core/team/sync-base.js'
import { createSyncState, type SyncDeps } from '../../core/team/sync.js'
import { sha256Hex } from '../../core/store/atomic-write.js'
import { MAX_FILE_NAME_BYTES } from '../../core/store/sibling-name.js'
import { getAppDataDir } from '../settings/app-data.js'
import { keychainOnlyHint } from '../integrations/cli-secrets.js'
import { teamTokenId } from '../settings/secrets.js'
import { resolveTeamTarget } from '../settings/team-target.js'
import { getOriginUrl } from '../../core/team/repo-slug.js'
import { normalizeServerUrl } from '../settings/project-values.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { teamServerUrlProblem } from '../../../src-shared/team-server-url.js'
import { credentialProblem } from '../../../src-shared/credentials.js'
import { teamRepoProblem } from '../../../src-shared/team-repo.js'

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

/**
 * Where the last agreeing checksums of this team dir live for one server and repo (shared by the
 * app and the CLI). An older Memdir kept one per team dir and repo: it is read until the first save.
 */
export function syncBaseFor(ctx: ProjectContext, url: string, repo: string): SyncBase {
  const dir = join(getAppDataDir(ctx), 'team-sync')
  const team = sanitizePath(getTeamMemPath(ctx))
  const safeRepo = repo.replace(/[^A-Za-z0-9._-]/g, '-')
  const server = sha256Hex(normalizeServerUrl(url)).slice(0, 12)
  const legacy = `${team}--${safeRepo}.json`
  return new SyncBase(
    join(dir, boundedFileName(`${team}--${safeRepo}--${server}`, '.json')),
    // One too long to name a file was never written (and reading it would fail, not find nothing).
    legacy.length <= MAX_FILE_NAME_BYTES ? join(dir, legacy) : undefined,
  )
}

/**
 * The longest name a state file gets. It was chosen to leave room for the atomic write's temp name
 * and the lock beside it, which now bound themselves (sibling-name.ts); it stays, so every state
 * file written since keeps its name. A name that fitted before keeps its name too.
 */
const MAX_STATE_FILE_NAME = 230

/**
 * `stem + ext`, or when that is too long its start with a hash of the whole stem: a deep project
 * path and a long repo name made the team sync state ENAMETOOLONG, and no sync could run.
 */
function boundedFileName(stem: string, ext: string): string {
  if (stem.length + ext.length <= MAX_STATE_FILE_NAME) return stem + ext
  const hash = sha256Hex(stem).slice(0, 16)
  return `${stem.slice(0, MAX_STATE_FILE_NAME - ext.length - hash.length - 1)}-${hash}${ext}`
}

/** A remote URL as shown: `https://user:token@host/…` without its user and token. */
const withoutUserInfo = (url: string) => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1')

/**
 * The project's team target (see resolveTeamTarget) as sync dependencies; with `history`, pulls
 * record their writes as team-pull, and a local version a pull replaces is first kept in history
 * as the user's.
 */
export function resolveTeamSetup(ctx: ProjectContext, history?: TeamHistory): TeamSetup {
  const team = getTeamMemoryEnablement(ctx)
  if (!team.enabled) return { ok: false, state: 'off', reason: `team memory is off: ${team.reason}` }
  const target = resolveTeamTarget(ctx)
  const missing = (reason: string): TeamSetup => ({ ok: false, state: 'not-configured', reason })
  if (!target.url)
    return missing('no team server configured for this project (Team sync page, or MEMDIR_TEAM_URL)')
  const urlProblem = teamServerUrlProblem(target.url)
  if (urlProblem) return missing(`the team server URL is refused: ${urlProblem}`)
  if (!target.repo) {
    const origin = getOriginUrl(ctx.projectRoot)
    return missing(
      `cannot tell the repo: ${
        origin
          ? `the git origin ${JSON.stringify(withoutUserInfo(origin).slice(0, 200))} names no owner/name repo`
          : 'no git origin remote'
      } (set it on the Team sync page, or MEMDIR_TEAM_REPO)`,
    )
  }
  const repoProblem = teamRepoProblem(target.repo)
  if (repoProblem)
    return missing(
      `the team repo is refused: ${repoProblem} (set it on the Team sync page, or MEMDIR_TEAM_REPO)`,
    )
  if (!target.token)
    return missing(
      keychainOnlyHint(ctx, teamTokenId(target.pair!)) ??
        `no team token for ${target.repo} on ${normalizeServerUrl(target.url)} (Team sync page, or MEMDIR_TEAM_TOKEN)`,
    )
  const tokenProblem = credentialProblem('team token', target.token)
  if (tokenProblem) return missing(`${tokenProblem} (Team sync page, or MEMDIR_TEAM_TOKEN)`)
  const deps: SyncDeps = {
    api: new TeamApiClient({ baseUrl: target.url, token: target.token }),
    repo: target.repo,
    teamDir: getTeamMemPath(ctx),
    state: createSyncState(),
    base: syncBaseFor(ctx, target.url, target.repo),
    scanner: scannerFor(ctx),
  }
  if (history) {
    deps.record = history.writerFor(`pull-${Date.now()}`)
    deps.beforeOverwrite = (key) => keepLocalVersion(history, `${TEAM_DIRNAME}/${key}`)
  }
  return { ok: true, url: target.url, repo: target.repo, deps }
}

/** Records the file on disk as the user's (if history lacks it) and returns that version's id. */
export async function keepLocalVersion(history: TeamHistory, rel: string): Promise<number | undefined> {
  await reconcileHistory(history.store, history.memoryDir, 'user', { paths: [rel] })
  return (await history.store.list({ path: rel })).at(-1)?.id
}
