import type { PromptPreview } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { loadMemoryPromptDetailed } from '../../core/prompt/load.js'
import type { MemoryFormat } from '../../core/store/frontmatter.js'
import { preferredMemoryFormat } from '../../core/store/memory-format.js'
import { scanMemoryFiles } from '../../core/store/scan.js'
import { loadAppSettings } from '../settings/app-data.js'
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

/** The frontmatter format new memories get in this project: the setting, else the newest memory's. */
export async function memoryFormatFor(ctx: ProjectContext, memoryDir: string): Promise<MemoryFormat> {
  return preferredMemoryFormat(
    await scanMemoryFiles(memoryDir, { scanner: scannerFor(ctx) }),
    loadAppSettings(ctx).memoryFormat,
  )
}
