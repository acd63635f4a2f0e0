import type { HooksOff } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { findSetting, loadAllSettings } from '../../core/paths/settings.js'

/**
 * Whether Claude Code runs none of the hooks in this project's settings files, and which file
 * says so. Its settings merge by precedence (managed, then the project's local file, its shared
 * file, the user's: settings.ts), and the first that sets `disableAllHooks` decides (probed on
 * 2.1.88 and 2.1.337: `true` in the user's file with `false` in the local one runs hooks; the other
 * way round runs none). Managed settings with `allowManagedHooksOnly` run only their own hooks.
 */
export function hooksOff(ctx: ProjectContext): HooksOff | undefined {
  const all = loadAllSettings(ctx)
  const policy = all.find((s) => s.source === 'policy')
  if (policy?.settings.allowManagedHooksOnly === true)
    return { path: policy.path, setting: 'allowManagedHooksOnly' }
  const set = findSetting(all, 'disableAllHooks')
  return set?.value === true ? { path: set.path, setting: 'disableAllHooks' } : undefined
}

/** One line saying why the hooks do not run. */
export const hooksOffText = (off: HooksOff) =>
  off.setting === 'allowManagedHooksOnly'
    ? `Claude Code runs only the hooks of its managed settings here (allowManagedHooksOnly in ${off.path}): Memdir's hooks do not run`
    : `Claude Code runs no hooks in this project (disableAllHooks is true in ${off.path}): Memdir's hooks do not run until it is removed`
