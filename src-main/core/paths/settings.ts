import { isMissing, messageOf } from '../../../src-shared/errors.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getClaudeConfigDir } from './base-dir.js'
import type { ProjectContext } from './context.js'
import { splitByteOrderMark } from '../../../src-shared/json.js'

export type SettingsSource = 'policy' | 'flag' | 'local' | 'project' | 'user'

/** Highest priority first, as Claude Code merges them. */
export const SETTINGS_SOURCES: readonly SettingsSource[] = ['policy', 'flag', 'local', 'project', 'user']

/**
 * Sources trusted for `autoMemoryDirectory`. The project's checked-in `.claude/settings.json`
 * is excluded: a hostile repository could aim it at `~/.ssh` and gain the memory-dir write carve-out.
 */
export const TRUSTED_MEMORY_DIR_SOURCES: readonly SettingsSource[] = ['policy', 'flag', 'local', 'user']

export interface MemdirSettings {
  autoMemoryDirectory?: unknown
  autoMemoryEnabled?: unknown
  teamMemoryEnabled?: unknown
  [key: string]: unknown
}

export interface LoadedSettings {
  source: SettingsSource
  path: string
  settings: MemdirSettings
  /** Set when the file exists but is not a JSON object. */
  error?: string
}

export function defaultPolicySettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json'
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json'
  return '/etc/claude-code/managed-settings.json'
}

export function settingsPathFor(ctx: ProjectContext, source: SettingsSource): string | undefined {
  switch (source) {
    case 'policy':
      return ctx.policySettingsPath ?? defaultPolicySettingsPath()
    case 'flag':
      return ctx.flagSettingsPath
    case 'local':
      return join(ctx.projectRoot, '.claude', 'settings.local.json')
    case 'project':
      return join(ctx.projectRoot, '.claude', 'settings.json')
    case 'user':
      return join(getClaudeConfigDir(ctx), 'settings.json')
  }
}

export function loadSettingsFile(source: SettingsSource, path: string): LoadedSettings | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    if (isMissing(e)) return undefined
    // There but unreadable (a managed-policy file the user may not read, a directory): reported.
    return { source, path, settings: {}, error: `cannot read it: ${messageOf(e)}` }
  }
  try {
    const parsed: unknown = JSON.parse(splitByteOrderMark(text).rest)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { source, path, settings: {}, error: 'settings file is not a JSON object' }
    }
    return { source, path, settings: parsed as MemdirSettings }
  } catch (e) {
    return { source, path, settings: {}, error: `invalid JSON: ${messageOf(e)}` }
  }
}

/** Every settings file that exists, highest priority first. */
export function loadAllSettings(ctx: ProjectContext): LoadedSettings[] {
  const out: LoadedSettings[] = []
  for (const source of SETTINGS_SOURCES) {
    const path = settingsPathFor(ctx, source)
    if (!path) continue
    const loaded = loadSettingsFile(source, path)
    if (loaded) out.push(loaded)
  }
  return out
}

/** The first source (by priority, among `sources`) that sets `key`. */
export function findSetting(
  all: readonly LoadedSettings[],
  key: string,
  sources: readonly SettingsSource[] = SETTINGS_SOURCES,
): { source: SettingsSource; value: unknown; path: string } | undefined {
  for (const s of all) {
    if (!sources.includes(s.source)) continue
    if (Object.prototype.hasOwnProperty.call(s.settings, key) && s.settings[key] !== undefined) {
      return { source: s.source, value: s.settings[key], path: s.path }
    }
  }
  return undefined
}
