import { messageOf, errnoOf } from '../../../src-shared/errors.js'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProjectContext } from '../../core/paths/context.js'
import { getAppDataDir } from './data-dir.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { writeFileAtomic } from '../../core/store/atomic-write.js'
import { check } from '../../../src-shared/schema-common.js'
import { AppSettingsSchema, type AppSettings } from '../../../src-shared/settings.js'

export { getAppDataDir }

export function snapshotDirFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'snapshots', sanitizePath(memoryDir))
}

export function historyDirFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'history', sanitizePath(memoryDir))
}

/** Per-memory-dir extraction state shared by the app, `memdir watch` and hook-started runs. */
export function extractionDirFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'extraction', sanitizePath(memoryDir))
}

export function proposalsDirFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'proposals', sanitizePath(memoryDir))
}

export type { AppSettings }

export function settingsFilePath(ctx: ProjectContext): string {
  return join(getAppDataDir(ctx), 'settings.json')
}

export interface LoadedSettings {
  settings: AppSettings
  /** Why the file could not be used (not JSON, or not the settings shape); defaults apply meanwhile. */
  problem?: string
}

/** `<app data>/settings.json` through its schema; a missing file is defaults, a broken one says why. */
export function readAppSettings(ctx: ProjectContext): LoadedSettings {
  let text: string
  try {
    text = readFileSync(settingsFilePath(ctx), 'utf8')
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return { settings: {} }
    return { settings: {}, problem: `cannot read ${settingsFilePath(ctx)}: ${messageOf(e)}` }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return { settings: {}, problem: `${settingsFilePath(ctx)} is not JSON: ${messageOf(e)}` }
  }
  const r = check(AppSettingsSchema, json)
  if (!r.ok) return { settings: {}, problem: `${settingsFilePath(ctx)}: ${r.message}` }
  return { settings: r.value }
}

export function loadAppSettings(ctx: ProjectContext): AppSettings {
  return readAppSettings(ctx).settings
}

/** Moves a broken settings file aside (never deleted) so the next save cannot lose it; returns where. */
export async function setAsideBrokenSettings(ctx: ProjectContext): Promise<string | undefined> {
  if (!readAppSettings(ctx).problem || !existsSync(settingsFilePath(ctx))) return undefined
  const aside = join(
    getAppDataDir(ctx),
    `settings.broken-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  )
  await rename(settingsFilePath(ctx), aside)
  return aside
}

/** Validates with the same schema and writes atomically, readable by the user only (it holds tokens). */
export async function saveAppSettings(ctx: ProjectContext, settings: AppSettings): Promise<void> {
  const r = check(AppSettingsSchema, settings)
  if (!r.ok) throw new Error(`settings not saved: ${r.message}`)
  const valid = r.value
  await mkdir(getAppDataDir(ctx), { recursive: true })
  await setAsideBrokenSettings(ctx)
  await writeFileAtomic(settingsFilePath(ctx), JSON.stringify(valid, null, 2) + '\n', { mode: 0o600 })
}
