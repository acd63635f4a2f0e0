import { join } from 'node:path'
import { type ProjectContext, resolveHomeDir } from './context.js'

/** Claude Code's config home: CLAUDE_CONFIG_DIR, else ~/.claude. Holds settings.json and transcripts. */
export function getClaudeConfigDir(ctx: ProjectContext): string {
  return ctx.env.CLAUDE_CONFIG_DIR || join(resolveHomeDir(ctx), '.claude')
}

/** Where memory lives: the remote mount when set, else the config home (SPEC §1). */
export function getMemoryBaseDir(ctx: ProjectContext): string {
  return ctx.env.CLAUDE_CODE_REMOTE_MEMORY_DIR || getClaudeConfigDir(ctx)
}

export function isRemoteMode(ctx: ProjectContext): boolean {
  const v = ctx.env.CLAUDE_CODE_REMOTE
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false'
}
