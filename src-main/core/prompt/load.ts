import { join } from 'node:path'
import { getAutoMemPath, ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import type { ProjectContext } from '../paths/context.js'
import { isEnvTruthy } from '../paths/context.js'
import { getAutoMemoryEnablement, isTeamMemoryEnabled } from '../paths/enablement.js'
import { getTeamMemPath } from '../paths/team-agent-paths.js'
import { readIndexText } from '../store/index-file.js'
import type { MemoryFormat } from '../store/frontmatter.js'
import { ensureMemoryDirExists, type Logger } from '../store/ensure-dir.js'
import { buildMemoryPrompt } from './build-memory-lines.js'
import { buildCombinedMemoryPrompt } from './combined.js'
import { buildAssistantDailyLogPrompt } from './daily-log.js'

export type MemoryPromptMode = 'kairos' | 'team' | 'normal'

export interface LoadMemoryPromptOptions {
  /** Force a mode (the UI previews each); otherwise chosen from the context. */
  mode?: MemoryPromptMode
  log?: Logger
  /** The agent's load creates the dir (SPEC §3); a read-only preview passes false. */
  ensureDir?: boolean
  /** The frontmatter format agents are told to write (preferredMemoryFormat); default flat. */
  format?: MemoryFormat
}

export type LoadedMemoryPrompt =
  | { enabled: true; mode: MemoryPromptMode; memoryDir: string; prompt: string }
  | { enabled: false; reason: string }

export function selectPromptMode(ctx: ProjectContext): MemoryPromptMode {
  if (isEnvTruthy(ctx.env.MEMDIR_KAIROS) || isEnvTruthy(ctx.env.CLAUDE_CODE_KAIROS)) return 'kairos'
  if (isTeamMemoryEnabled(ctx)) return 'team'
  return 'normal'
}

/** SPEC §4 dispatch: KAIROS → daily log; team on → combined; normal → single dir; disabled → null. */
export async function loadMemoryPromptDetailed(
  ctx: ProjectContext,
  opts: LoadMemoryPromptOptions = {},
): Promise<LoadedMemoryPrompt> {
  const enablement = getAutoMemoryEnablement(ctx)
  if (!enablement.enabled) return { enabled: false, reason: enablement.reason }
  const memoryDir = getAutoMemPath(ctx)
  const mode = opts.mode ?? selectPromptMode(ctx)
  const ensure = (dir: string) =>
    opts.ensureDir === false ? Promise.resolve(true) : ensureMemoryDirExists(dir, opts.log)

  if (mode === 'kairos') {
    await ensure(memoryDir)
    return { enabled: true, mode, memoryDir, prompt: buildAssistantDailyLogPrompt(memoryDir) }
  }
  if (mode === 'team') {
    const teamDir = getTeamMemPath(ctx)
    await ensure(teamDir) // creates the auto dir with it
    const [privateIndex, teamIndex] = await Promise.all([
      readIndexText(join(memoryDir, ENTRYPOINT_NAME)),
      readIndexText(join(teamDir, ENTRYPOINT_NAME)),
    ])
    return {
      enabled: true,
      mode,
      memoryDir,
      prompt: buildCombinedMemoryPrompt({
        autoDir: memoryDir,
        teamDir,
        privateIndex,
        teamIndex,
        format: opts.format,
      }),
    }
  }
  await ensure(memoryDir)
  const indexContent = await readIndexText(join(memoryDir, ENTRYPOINT_NAME))
  return {
    enabled: true,
    mode,
    memoryDir,
    prompt: buildMemoryPrompt({ displayName: 'auto memory', memoryDir, indexContent, format: opts.format }),
  }
}

/** SPEC name: the prompt section, or null when auto memory is disabled. */
export async function loadMemoryPrompt(
  ctx: ProjectContext,
  opts: LoadMemoryPromptOptions = {},
): Promise<string | null> {
  const r = await loadMemoryPromptDetailed(ctx, opts)
  return r.enabled ? r.prompt : null
}
