import { join } from 'node:path'
import { splitByteOrderMark } from '../../../src-shared/json.js'
import type { HooksOff } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { readIfExists } from '../../core/store/atomic-write.js'
import { claudeSettingsPath } from './claude-hooks.js'

/** Where an administrator's managed settings for Claude Code live on this platform. */
export function managedSettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json'
  if (platform === 'win32') return join('C:\\ProgramData', 'ClaudeCode', 'managed-settings.json')
  return '/etc/claude-code/managed-settings.json'
}

/** A settings file's object, or undefined when it is missing or not a JSON object (Claude Code skips it too). */
async function settingsOf(path: string): Promise<Record<string, unknown> | undefined> {
  let text: string | null
  try {
    text = await readIfExists(path)
  } catch {
    return undefined // unreadable (a directory, no permission)
  }
  if (text === null) return undefined
  try {
    const parsed: unknown = JSON.parse(splitByteOrderMark(text).rest)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Whether Claude Code runs none of the hooks in this project's settings files, and which file
 * says so. Its settings merge by precedence — managed, then the project's local file, the
 * project's shared file, the user's — and the first that sets `disableAllHooks` decides (probed on
 * 2.1.88 and 2.1.337: `true` in the user's file with `false` in the local one runs hooks; the other
 * way round runs none). Managed settings with `allowManagedHooksOnly` run only their own hooks.
 */
export async function hooksOff(
  ctx: ProjectContext,
  managed = managedSettingsPath(),
): Promise<HooksOff | undefined> {
  const policy = await settingsOf(managed)
  if (policy?.allowManagedHooksOnly === true) return { path: managed, setting: 'allowManagedHooksOnly' }
  const files = [managed, ...(['local', 'project', 'user'] as const).map((s) => claudeSettingsPath(ctx, s))]
  for (const path of files) {
    const s = path === managed ? policy : await settingsOf(path)
    if (typeof s?.disableAllHooks === 'boolean')
      return s.disableAllHooks ? { path, setting: 'disableAllHooks' } : undefined
  }
  return undefined
}

/** One line saying why the hooks do not run. */
export const hooksOffText = (off: HooksOff) =>
  off.setting === 'allowManagedHooksOnly'
    ? `Claude Code runs only the hooks of its managed settings here (allowManagedHooksOnly in ${off.path}): Memdir's hooks do not run`
    : `Claude Code runs no hooks in this project (disableAllHooks is true in ${off.path}): Memdir's hooks do not run until it is removed`
