import {
  initExtractMemories,
  type ExtractDeps,
  type ExtractionEvent,
  type Extractor,
} from '../../core/extract/extract-memories.js'
import { join } from 'node:path'
import { type CursorStore, FileCursorStore } from '../../core/extract/cursor-store.js'
import type { ModelClient } from '../../core/model/client.js'
import { extractionDirFor } from '../settings/app-data.js'
import { extractionLock } from './extraction-lock.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { isRemoteMode } from '../../core/paths/base-dir.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { loadEffectiveConfig, type EffectiveConfig } from '../settings/config.js'
import { getAutoMemoryEnablement, isTeamMemoryEnabled } from '../../core/paths/enablement.js'
import { getTeamMemPath } from '../../core/paths/team-agent-paths.js'
import { loadMemoryPrompt } from '../../core/prompt/load.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { clientOwnMemory } from '../../core/sessions/client-memory.js'
import { memoryStyleFor } from '../settings/memory-style.js'

export interface ExtractionServiceOptions {
  client?: ModelClient
  onEvent?: (e: ExtractionEvent) => void
  /** The effective configuration (its extraction switch and memory format); read from the context by default. */
  config?: EffectiveConfig
  /** How a run's writes reach history (see ExtractDeps.recordFor). */
  recordFor?: ExtractDeps['recordFor']
  throttleEvery?: number
  review?: ExtractDeps['review']
  /** Default: the project's shared cursor file in Memdir's data dir. */
  cursors?: CursorStore
}

const MAIN_AGENT_INTRO =
  'You are Claude Code, working in the user’s repository. The conversation below is the session so far.'

/** The extraction service of one workspace, with its gates read live from the context. */
export function createExtractionService(ctx: ProjectContext, opts: ExtractionServiceOptions = {}): Extractor {
  const memoryDir = getAutoMemPath(ctx)
  const config = opts.config ?? loadEffectiveConfig(ctx)
  return initExtractMemories({
    memoryDir,
    scanner: scannerFor(ctx),
    teamDir: isTeamMemoryEnabled(ctx) ? getTeamMemPath(ctx) : undefined,
    client: opts.client,
    throttleEvery: opts.throttleEvery,
    cwd: ctx.projectRoot,
    onEvent: opts.onEvent,
    review: opts.review,
    recordFor: opts.recordFor,
    cursors: opts.cursors ?? new FileCursorStore(join(extractionDirFor(ctx, memoryDir), 'cursors.json')),
    exclusive: extractionLock(extractionDirFor(ctx, memoryDir)),
    gates: () => {
      const auto = getAutoMemoryEnablement(ctx)
      return [
        {
          ok: config.extractionEnabled.value,
          reason:
            config.extractionEnabled.source === 'env'
              ? 'extraction is switched off (MEMDIR_EXTRACTION=0)'
              : 'extraction is switched off in settings',
        },
        { ok: auto.enabled, reason: `auto memory is off: ${auto.reason}` },
        { ok: !isRemoteMode(ctx), reason: 'remote mode' },
      ]
    },
    memoryStyle: (headers) => memoryStyleFor(ctx, headers, config.memoryFormat.value),
    clientExtracts: () => clientOwnMemory(ctx).then((c) => c.extracts),
    systemPrompt: async (format) => {
      const memory = await loadMemoryPrompt(ctx, { format })
      return memory ? `${MAIN_AGENT_INTRO}\n\n${memory}` : MAIN_AGENT_INTRO
    },
  })
}
