import { isRemoteMode } from './base-dir.js'
import { type ProjectContext, isEnvDefinedFalsy, isEnvTruthy } from './context.js'
import { findSetting, loadAllSettings } from './settings.js'

export interface Enablement {
  enabled: boolean
  /** Human-readable: which rule decided. */
  reason: string
}

/** SPEC §2, first match wins. Off disables the prompt section, extraction, dream and team sync. */
export function getAutoMemoryEnablement(ctx: ProjectContext): Enablement {
  const disable = ctx.env.CLAUDE_CODE_DISABLE_AUTO_MEMORY
  if (isEnvTruthy(disable)) return { enabled: false, reason: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY is set' }
  if (isEnvDefinedFalsy(disable))
    return { enabled: true, reason: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 forces it on' }
  if (isEnvTruthy(ctx.env.CLAUDE_CODE_SIMPLE))
    return { enabled: false, reason: 'bare mode (CLAUDE_CODE_SIMPLE)' }
  if (isRemoteMode(ctx) && !ctx.env.CLAUDE_CODE_REMOTE_MEMORY_DIR) {
    return { enabled: false, reason: 'remote mode without CLAUDE_CODE_REMOTE_MEMORY_DIR' }
  }
  return fromSettings(ctx, 'autoMemoryEnabled') ?? { enabled: true, reason: 'default' }
}

/** A boolean switch from the settings sources (highest precedence wins), with where it came from. */
function fromSettings(ctx: ProjectContext, key: string): Enablement | undefined {
  const setting = findSetting(loadAllSettings(ctx), key)
  if (!setting || typeof setting.value !== 'boolean') return undefined
  return { enabled: setting.value, reason: `${key}=${setting.value} in ${setting.source} settings` }
}

export function isAutoMemoryEnabled(ctx: ProjectContext): boolean {
  return getAutoMemoryEnablement(ctx).enabled
}

/**
 * Team memory needs auto memory on plus its own switch: env MEMDIR_TEAM_MEMORY (1/0), Memdir's
 * switch, or `teamMemoryEnabled` in Claude Code's settings. Off by default.
 */
export function getTeamMemoryEnablement(ctx: ProjectContext): Enablement {
  const auto = getAutoMemoryEnablement(ctx)
  if (!auto.enabled) return { enabled: false, reason: `auto memory is off: ${auto.reason}` }
  const env = ctx.env.MEMDIR_TEAM_MEMORY
  if (isEnvTruthy(env)) return { enabled: true, reason: 'MEMDIR_TEAM_MEMORY is set' }
  if (isEnvDefinedFalsy(env)) return { enabled: false, reason: 'MEMDIR_TEAM_MEMORY=0' }
  if (ctx.teamMemorySwitch !== undefined)
    return {
      enabled: ctx.teamMemorySwitch,
      reason: `switched ${ctx.teamMemorySwitch ? 'on' : 'off'} in Memdir`,
    }
  return fromSettings(ctx, 'teamMemoryEnabled') ?? { enabled: false, reason: 'team memory is off by default' }
}

export function isTeamMemoryEnabled(ctx: ProjectContext): boolean {
  return getTeamMemoryEnablement(ctx).enabled
}
