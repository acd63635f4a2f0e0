import { rethrowUnless, isFsError } from '../../../src-shared/errors.js'
import { realpathSync } from 'node:fs'
import { join, normalize, relative, sep, isAbsolute } from 'node:path'
import { getMemoryBaseDir } from './base-dir.js'
import { type ProjectContext, resolveHomeDir } from './context.js'
import { findCanonicalGitRoot } from './git-root.js'
import { projectDirName } from './sanitize.js'
import { findSetting, loadAllSettings, TRUSTED_MEMORY_DIR_SOURCES, type SettingsSource } from './settings.js'
import { checkMemoryPath } from './validate.js'

export const AUTO_MEM_DIRNAME = 'memory'
export const ENTRYPOINT_NAME = 'MEMORY.md'

export type AutoMemPathSource = 'env' | `settings:${SettingsSource}` | 'default'

export interface RejectedOverride {
  source: 'env' | `settings:${SettingsSource}`
  value: string
  reason: string
}

export interface AutoMemPathResolution {
  /** Absolute, NFC-normalized, exactly one trailing separator. */
  path: string
  source: AutoMemPathSource
  /** Overrides that were present but refused; resolution fell through to the next rule. */
  rejected: RejectedOverride[]
  /** The root the default path is derived from (canonical git root, or the project root). */
  projectBase: string
}

/** The project root with symlinks resolved, as Claude Code names it (a symlinked checkout is its target). */
export function getRealProjectRoot(ctx: ProjectContext): string {
  try {
    return realpathSync(ctx.projectRoot)
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return ctx.projectRoot
  }
}

/** The canonical git root shared by all worktrees (a bare repository for its worktrees), or the project root. */
export function getAutoMemBase(ctx: ProjectContext): string {
  const real = getRealProjectRoot(ctx)
  return findCanonicalGitRoot(real) ?? real
}

function resolveUncached(ctx: ProjectContext): AutoMemPathResolution {
  const homeDir = resolveHomeDir(ctx)
  const rejected: RejectedOverride[] = []
  const projectBase = getAutoMemBase(ctx)

  const envValue = ctx.env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE
  if (envValue !== undefined && envValue !== '') {
    const r = checkMemoryPath(envValue, { expandTilde: false, homeDir })
    if (r.ok) return { path: r.path, source: 'env', rejected, projectBase }
    rejected.push({ source: 'env', value: envValue, reason: r.reason })
  }

  const all = loadAllSettings(ctx)
  // A trusted settings file that is there but cannot be used may hold the override: say so.
  for (const s of all)
    if (s.error && TRUSTED_MEMORY_DIR_SOURCES.includes(s.source))
      rejected.push({ source: `settings:${s.source}`, value: s.path, reason: s.error })
  const setting = findSetting(all, 'autoMemoryDirectory', TRUSTED_MEMORY_DIR_SOURCES)
  if (setting) {
    const r = checkMemoryPath(setting.value, { expandTilde: true, homeDir })
    const source = `settings:${setting.source}` as const
    if (r.ok) return { path: r.path, source, rejected, projectBase }
    rejected.push({ source, value: String(setting.value), reason: r.reason })
  }

  const projects = join(getMemoryBaseDir(ctx), 'projects')
  const path = (join(projects, projectDirName(projects, projectBase), AUTO_MEM_DIRNAME) + sep).normalize(
    'NFC',
  )
  return { path, source: 'default', rejected, projectBase }
}

const cache = new Map<string, AutoMemPathResolution>()

function cacheKey(ctx: ProjectContext): string {
  // Keyed by project root like Claude Code; the env inputs are part of the key so a
  // changed environment (tests, the host switching workspaces) never reads a stale entry.
  const e = ctx.env
  return [
    ctx.projectRoot,
    e.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE,
    e.CLAUDE_CODE_REMOTE_MEMORY_DIR,
    e.CLAUDE_CONFIG_DIR,
    resolveHomeDir(ctx),
    ctx.flagSettingsPath,
    ctx.policySettingsPath,
  ].join('\0')
}

export function resolveAutoMemPath(ctx: ProjectContext): AutoMemPathResolution {
  const key = cacheKey(ctx)
  let hit = cache.get(key)
  if (!hit) {
    hit = resolveUncached(ctx)
    cache.set(key, hit)
  }
  return hit
}

/** Settings files can change while the app runs; the host calls this when it sees them change. */
export function clearAutoMemPathCache(): void {
  cache.clear()
}

export function getAutoMemPath(ctx: ProjectContext): string {
  return resolveAutoMemPath(ctx).path
}

export function getAutoMemEntrypoint(ctx: ProjectContext): string {
  return join(getAutoMemPath(ctx), ENTRYPOINT_NAME)
}

/** True when the env override chose the dir: such a dir does not get the write carve-out. */
export function hasAutoMemPathOverride(ctx: ProjectContext): boolean {
  return resolveAutoMemPath(ctx).source === 'env'
}

/** Whether `candidate` (after normalization) is `dir` or inside it, with no `..` escape. */
export function isPathInside(candidate: string, dir: string): boolean {
  if (!isAbsolute(candidate) || candidate.includes('\0')) return false
  const rel = relative(normalize(dir), normalize(candidate))
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

export function isAutoMemPath(candidate: string, ctx: ProjectContext): boolean {
  return isPathInside(candidate.normalize('NFC'), getAutoMemPath(ctx))
}
