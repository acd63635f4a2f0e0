import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { resolveHomeDir, type ProjectContext } from '../core/paths/context.js'
import { sanitizePath } from '../core/paths/sanitize.js'

/** Memdir's own data (snapshots, history, app settings): never inside a memory dir. */
export function getAppDataDir(ctx: ProjectContext): string {
  return ctx.env.MEMDIR_DATA_DIR || join(resolveHomeDir(ctx), '.memdir')
}

export function snapshotDirFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'snapshots', sanitizePath(memoryDir))
}

export function historyDirFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'history', sanitizePath(memoryDir))
}

export function proposalsDirFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'proposals', sanitizePath(memoryDir))
}

export interface AppSettings {
  teamUrl?: string
  teamToken?: string
  teamRepo?: string
  extractionEnabled?: boolean
  dreamEnabled?: boolean
  dreamMinHours?: number
  dreamMinSessions?: number
  apiKey?: string
  baseURL?: string
  selectorModel?: string
  agentModel?: string
  reviewMode?: boolean
  /** Frontmatter format for new memories: auto (as the newest memory), flat `type:` or nested `metadata.type`. */
  memoryFormat?: 'auto' | 'flat' | 'nested'
}

/** `<app data>/settings.json`; a missing or broken file means defaults. */
export function loadAppSettings(ctx: ProjectContext): AppSettings {
  try {
    const v = JSON.parse(readFileSync(join(getAppDataDir(ctx), 'settings.json'), 'utf8')) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as AppSettings) : {}
  } catch {
    return {}
  }
}
