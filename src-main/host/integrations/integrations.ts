import { join } from 'node:path'
import type { HookPlanView, HookScope, HookStatusView, IntegrationsView } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { ConflictError, sha256Hex } from '../../core/store/atomic-write.js'
import { getAppDataDir } from '../settings/app-data.js'
import { applyHooks, HOOK_SCOPES, hookStatus, planHooks } from './claude-hooks.js'
import { memdirCommandBase, memdirCommandParts } from './hook-command.js'
import { hooksOff } from './hooks-off.js'
import { mcpConfigs } from './mcp-configs.js'

/** Settings → Integrations: hook status per scope and ready-to-copy MCP configs for this project. */
export async function integrationsView(ctx: ProjectContext): Promise<IntegrationsView> {
  const base = memdirCommandBase(ctx.env)
  const hooks: HookStatusView[] = await Promise.all(HOOK_SCOPES.map((s) => hookStatus(ctx, s, base)))
  const off = hooksOff(ctx)
  const { command, args } = memdirCommandParts(ctx.env)
  return {
    hookCommand: base,
    hooks,
    ...(off ? { hooksOff: off } : {}),
    mcp: mcpConfigs(command, args, ctx.projectRoot),
  }
}

export async function planHookChange(
  ctx: ProjectContext,
  scope: HookScope,
  action: 'install' | 'uninstall',
): Promise<HookPlanView> {
  const change = await planHooks(ctx, scope, action, memdirCommandBase(ctx.env))
  return {
    scope,
    action,
    path: change.path,
    changed: change.changed,
    diff: change.diff,
    beforeHash: change.before === null ? null : sha256Hex(change.before),
  }
}

/** Writes the change the user was shown: refused (CONFLICT) if the file changed since the plan. */
export async function applyHookChange(
  ctx: ProjectContext,
  scope: HookScope,
  action: 'install' | 'uninstall',
  beforeHash: string | null,
): Promise<{ backup?: string; status: HookStatusView }> {
  const base = memdirCommandBase(ctx.env)
  const change = await planHooks(ctx, scope, action, base)
  const now = change.before === null ? null : sha256Hex(change.before)
  if (now !== beforeHash) throw new ConflictError(change.path, change.before, change.after)
  const { backup } = await applyHooks(ctx, change, join(getAppDataDir(ctx), 'backups', 'claude-settings'))
  return { ...(backup ? { backup } : {}), status: await hookStatus(ctx, scope, base) }
}
