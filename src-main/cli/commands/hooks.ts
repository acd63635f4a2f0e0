import type { ProjectContext } from '../../core/paths/context.js'
import { hooksOff, hooksOffText } from '../../host/integrations/hooks-off.js'
import { getAppDataDir } from '../../host/settings/app-data.js'
import {
  applyHooks,
  HOOK_SCOPES,
  hookStatus,
  planHooks,
  type HookScope,
} from '../../host/integrations/claude-hooks.js'
import { memdirCommandBase } from '../../host/integrations/hook-command.js'
import { join } from 'node:path'
import { type CliIO, printJson, UsageError } from '../io.js'

export interface HooksOptions {
  scope?: string
  dryRun: boolean
  json: boolean
}

function scopeOf(s: string | undefined): HookScope {
  const scope = (s ?? 'user') as HookScope
  if (!HOOK_SCOPES.includes(scope)) throw new UsageError('--scope is user, project or local')
  return scope
}

/** `memdir hooks install|uninstall|status`: Claude Code's settings files, merged, never clobbered. */
export async function hooksCommand(
  ctx: ProjectContext,
  io: CliIO,
  sub: string | undefined,
  opts: HooksOptions,
): Promise<number> {
  const base = memdirCommandBase(ctx.env)
  if (sub === 'status') {
    const all = await Promise.all(HOOK_SCOPES.map((s) => hookStatus(ctx, s, base)))
    const off = hooksOff(ctx)
    if (opts.json) {
      printJson(
        io,
        all.map((s) => (off ? { ...s, hooksOff: off } : s)),
      )
      return 0
    }
    for (const s of all) {
      const state = s.problem
        ? `unreadable — ${s.problem}`
        : s.installed
          ? `installed${s.outdated ? ' (another memdir command: reinstall to update)' : ''}`
          : Object.values(s.events).some(Boolean)
            ? `partly installed (${Object.entries(s.events)
                .filter(([, v]) => v)
                .map(([k]) => k)
                .join(', ')})`
            : 'not installed'
      io.stdout(`${s.scope.padEnd(8)} ${state}\n         ${s.path}\n`)
    }
    if (off) io.stdout(`\nwarning: ${hooksOffText(off)}\n`)
    return 0
  }
  if (sub !== 'install' && sub !== 'uninstall')
    throw new UsageError('usage: memdir hooks install|uninstall|status')
  const change = await planHooks(ctx, scopeOf(opts.scope), sub, base)
  if (opts.dryRun || !change.changed) {
    if (opts.json) printJson(io, change)
    else io.stdout(change.changed ? change.diff : `${change.path}: nothing to change\n`)
    return 0
  }
  const { backup } = await applyHooks(ctx, change, join(getAppDataDir(ctx), 'backups', 'claude-settings'))
  if (opts.json) printJson(io, { ...change, backup })
  else
    io.stdout(
      `${sub === 'install' ? 'Installed the Memdir hooks in' : 'Removed the Memdir hooks from'} ${change.path}${backup ? `\n(the previous file is kept at ${backup})` : ''}\n`,
    )
  if (sub === 'install' && change.scope === 'project') io.stderr(SHARED_SCOPE_NOTE(base))
  const off = sub === 'install' ? hooksOff(ctx) : undefined
  if (off) io.stderr(`warning: ${hooksOffText(off)}\n`)
  return 0
}

/**
 * The project scope's file is the one a repository commits: every teammate's Claude Code then
 * runs this machine's command, which fails on each prompt where it is not installed there.
 */
const SHARED_SCOPE_NOTE = (base: string) =>
  `note: .claude/settings.json is usually committed, so teammates' Claude Code runs these hooks too, with this machine's command (${base}). Where that is not installed, every prompt shows a hook error. To keep them yours, use --scope local (.claude/settings.local.json, which git ignores) or --scope user.\n`
