import type { PromptPreview, RecallPreview } from '../../../src-shared/types.js'
import type { ModelClient } from '../../core/model/client.js'
import type { ProjectContext } from '../../core/paths/context.js'
import type { TermSource } from '../../core/recall/term-source.js'
import type { MemoryFormat } from '../../core/store/frontmatter.js'
import type { MemoryHeader } from '../../core/store/scan.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import { promptPreview } from './prompt-view.js'
import { recallPreview } from './recall-view.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { stalenessBasisFor } from './staleness-basis.js'

export interface PreviewsDeps {
  memoryDir: string
  client?: ModelClient
  /** The memories recall ranks (the app: its watcher-fed index). */
  scan: () => Promise<readonly MemoryHeader[]>
  termCache?: TermSource
  format: () => Promise<MemoryFormat>
}

/** What the agent would get: the memory prompt section, and what recall injects for a query. */
export function createPreviewsService(ctx: ProjectContext, deps: PreviewsDeps) {
  return {
    async prompt(mode: PromptPreview['mode']): Promise<PromptPreview> {
      const { memoryDir: _dir, ...preview } = await promptPreview(ctx, mode, await deps.format())
      return preview
    },
    recall(query: string, recentTools: string[]): Promise<RecallPreview> {
      return recallPreview(deps.memoryDir, query, {
        client: deps.client,
        recentTools,
        scan: deps.scan,
        staleness: stalenessBasisFor(ctx, deps.memoryDir),
        termCache: deps.termCache,
        scanner: scannerFor(ctx),
      })
    },
  }
}

export type PreviewsService = ReturnType<typeof createPreviewsService>

export function previewsHandlers(
  previews: () => PreviewsService,
): FeatureHandlers<'prompt/get' | 'recall/preview'> {
  return {
    'prompt/get': ({ mode }) => previews().prompt(mode),
    'recall/preview': ({ query, recentTools }) => previews().recall(query, recentTools),
  }
}
