import type { ProjectContext } from '../../core/paths/context.js'
import type { MemoryPromptMode } from '../../core/prompt/load.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { memoryStyleOf, promptPreview } from '../../host/previews/prompt-view.js'
import { type CliIO, printJson, UsageError } from '../io.js'

const MODES: readonly MemoryPromptMode[] = ['normal', 'team', 'kairos']

export async function promptCommand(
  ctx: ProjectContext,
  io: CliIO,
  json: boolean,
  mode?: string,
): Promise<number> {
  if (mode !== undefined && !MODES.includes(mode as MemoryPromptMode)) {
    throw new UsageError(`--mode must be one of ${MODES.join(', ')}`)
  }
  const { format } = await memoryStyleOf(ctx, getAutoMemPath(ctx))
  const r = await promptPreview(ctx, mode as MemoryPromptMode | undefined, format)
  if (json) printJson(io, r)
  else io.stdout(r.enabled ? r.prompt + '\n' : `disabled: ${r.reason}\n`)
  return 0
}
