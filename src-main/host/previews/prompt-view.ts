import type { PromptPreview } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { loadMemoryPromptDetailed } from '../../core/prompt/load.js'
import type { MemoryFormat } from '../../core/store/frontmatter.js'
import type { MemoryStyle } from '../../core/store/memory-format.js'
import { memoryStyleFor } from '../settings/memory-style.js'
import { scanMemoryFiles } from '../../core/store/scan.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'

/** The memory prompt section for a mode (the UI's Prompt view and `memdir prompt`). */
export async function promptPreview(
  ctx: ProjectContext,
  mode: PromptPreview['mode'] | undefined,
  format?: MemoryFormat,
): Promise<PromptPreview & { memoryDir?: string }> {
  const r = await loadMemoryPromptDetailed(ctx, { mode, ensureDir: false, format })
  return r.enabled
    ? { mode: r.mode, enabled: true, prompt: r.prompt, memoryDir: r.memoryDir }
    : { mode: mode ?? 'normal', enabled: false, prompt: null, reason: r.reason }
}

/** How new memories are written in this project, for a process that keeps no index (CLI, MCP). */
export async function memoryStyleOf(ctx: ProjectContext, memoryDir: string): Promise<MemoryStyle> {
  return memoryStyleFor(ctx, await scanMemoryFiles(memoryDir, { scanner: scannerFor(ctx) }))
}
