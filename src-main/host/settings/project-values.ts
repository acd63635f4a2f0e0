import { isFsError, isMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, sep } from 'node:path'
import type { ProjectValues } from '../../../src-shared/settings.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { getRepoSlug } from '../../core/team/repo-slug.js'
import { readAppSettings, saveAppSettings, settingsFilePath, type AppSettings } from './app-data.js'
import { adoptLegacyTeamToken, type SecretCipher } from './secrets.js'

/** One spelling per memory dir (with its trailing separator, as getAutoMemPath returns it). */
export const projectKey = (memoryDir: string) => (memoryDir.endsWith(sep) ? memoryDir : memoryDir + sep)

/** `path` with its nearest existing ancestor's real path (symlinks resolved) in front of the rest. */
function realSpelling(path: string): string {
  const rest: string[] = []
  for (let dir = path.replace(/[\\/]+$/, ''); ; dir = dirname(dir)) {
    try {
      return join(realpathSync.native(dir), ...rest.reverse())
    } catch (e) {
      rethrowUnless(isFsError(e), e)
      if (dirname(dir) === dir) return path
      rest.push(basename(dir))
    }
  }
}

/**
 * The key one project's values are kept under, and the keys of every other spelling of its memory
 * dir found in `projects`. Kept under the dir's real path, so every way of reaching it (a symlinked
 * `~/.claude`, CLAUDE_CONFIG_DIR set in one shell and not for the desktop app) finds one team
 * configuration for its one `team/`; values an earlier Memdir kept under another spelling are found
 * too, and move on the next save.
 */
function projectKeys(
  projects: AppSettings['projects'],
  memoryDir: string,
): { key: string; others: string[] } {
  const key = projectKey(realSpelling(memoryDir))
  const others = Object.keys(projects ?? {}).filter(
    (k) => k !== key && (k === projectKey(memoryDir) || projectKey(realSpelling(k)) === key),
  )
  return { key, others }
}

/** A team server URL as one spelling: origin and path, no trailing slash. */
export function normalizeServerUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`
  } catch (e) {
    rethrowUnless(e instanceof TypeError, e)
    return url.trim().replace(/\/+$/, '')
  }
}

/** The key a team token is kept under: it belongs to one server and one repo. */
export const teamPairKey = (url: string, repo: string) => `${normalizeServerUrl(url)}#${repo}`

/** The values one project keeps (its team server and repo); another project's are never read. */
export function projectValues(settings: AppSettings, memoryDir: string): ProjectValues {
  const { projects } = settings
  const exact = projects?.[projectKey(memoryDir)]
  if (exact && projectKey(realSpelling(memoryDir)) === projectKey(memoryDir)) return exact
  const { key, others } = projectKeys(projects, memoryDir)
  return projects?.[key] ?? (others[0] === undefined ? undefined : projects?.[others[0]]) ?? {}
}

/** The memory dir a project context resolves to: what its per-project values are keyed by. */
export const projectMemoryDir = (ctx: ProjectContext) => getAutoMemPath(ctx)

/** Whether two contexts are one project: one memory dir, however it is spelled (so one `team/`). */
export const sameProject = (a: ProjectContext, b: ProjectContext) =>
  projectKey(realSpelling(projectMemoryDir(a))) === projectKey(realSpelling(projectMemoryDir(b)))

/** Sets (a value) or clears ('' or null) this project's values, leaving every other project's alone. */
export async function saveProjectValues(
  ctx: ProjectContext,
  memoryDir: string,
  patch: { [K in keyof ProjectValues]?: ProjectValues[K] | '' | null },
): Promise<void> {
  const settings = { ...readAppSettings(ctx).settings }
  // Saved under the real path; values kept under another spelling of it move there.
  const { key, others } = projectKeys(settings.projects, memoryDir)
  const mine: ProjectValues = { ...projectValues(settings, memoryDir) }
  for (const [k, v] of Object.entries(patch) as [keyof ProjectValues, string | null | undefined][]) {
    if (v === undefined) continue
    if (v === '' || v === null) delete mine[k]
    else mine[k] = v
  }
  const projects = { ...settings.projects }
  for (const other of others) delete projects[other]
  if (Object.keys(mine).length) projects[key] = mine
  else delete projects[key]
  if (Object.keys(projects).length) settings.projects = projects
  else delete settings.projects
  await saveAppSettings(ctx, settings)
}

/**
 * True while the settings file still holds team values from before they were per project. (A
 * token saved without a server names no server and repo to belong to: it stays where it is.)
 */
export function hasLegacyTeamSettings(settings: AppSettings): boolean {
  return Boolean(settings.teamUrl || settings.teamRepo)
}

/** A project the legacy team values may belong to. */
export interface ProjectCandidate {
  projectRoot: string
  memoryDir: string
  /** When the user last opened it in Memdir (ms), if they did. */
  openedAt?: number
}

/**
 * The project that was open when the single, global team settings were saved: the one whose git
 * origin is the saved repo; else the one opened last before the settings file was written; else the
 * first candidate (the project the app opens first, or the command line's own).
 */
export function legacyTeamOwner(
  ctx: ProjectContext,
  settings: AppSettings,
  candidates: readonly ProjectCandidate[],
): ProjectCandidate | undefined {
  if (settings.teamRepo) {
    const byOrigin = candidates.find((c) => c.projectRoot && getRepoSlug(c.projectRoot) === settings.teamRepo)
    if (byOrigin) return byOrigin
  }
  let savedAt = Infinity
  try {
    savedAt = statSync(settingsFilePath(ctx)).mtimeMs
  } catch (e) {
    rethrowUnless(isMissing(e), e)
    /* no settings file: any opened project qualifies */
  }
  const opened = candidates
    .filter((c) => c.openedAt !== undefined && c.openedAt <= savedAt + 1000)
    .sort((a, b) => b.openedAt! - a.openedAt!)
  return opened[0] ?? candidates[0]
}

/**
 * Moves team values saved before they were per project (one URL, repo and token for every project)
 * to the project they were saved for: its URL and repo into its project values, the token to the
 * key of its server and repo. Every other project starts with none. Returns the owner, or
 * undefined when there was nothing to move.
 */
export async function migrateLegacyTeamSettings(
  ctx: ProjectContext,
  candidates: readonly ProjectCandidate[],
  cipher?: SecretCipher,
): Promise<ProjectCandidate | undefined> {
  const loaded = readAppSettings(ctx)
  if (loaded.problem || !hasLegacyTeamSettings(loaded.settings)) return undefined
  const legacy = loaded.settings
  const owner = legacyTeamOwner(ctx, legacy, candidates)
  if (!owner) return undefined
  const repo = legacy.teamRepo || getRepoSlug(owner.projectRoot)
  if (legacy.teamUrl && repo) await adoptLegacyTeamToken(ctx, teamPairKey(legacy.teamUrl, repo), cipher)
  const settings = { ...readAppSettings(ctx).settings }
  const { key, others } = projectKeys(settings.projects, owner.memoryDir)
  const mine: ProjectValues = { ...projectValues(settings, owner.memoryDir) }
  if (legacy.teamUrl && !mine.teamUrl) mine.teamUrl = legacy.teamUrl
  if (legacy.teamRepo && !mine.teamRepo) mine.teamRepo = legacy.teamRepo
  if (Object.keys(mine).length) {
    const projects = { ...settings.projects, [key]: mine }
    for (const other of others) delete projects[other]
    settings.projects = projects
  }
  delete settings.teamUrl
  delete settings.teamRepo
  await saveAppSettings(ctx, settings)
  return owner
}
