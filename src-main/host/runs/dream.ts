import { createAutoDream, type DreamDeps, type DreamEvent } from '../../core/dream/auto-dream.js'
import type { ModelClient } from '../../core/model/client.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { getAutoMemoryEnablement } from '../../core/paths/enablement.js'
import { getProjectTranscriptDir } from '../../core/paths/team-agent-paths.js'
import { loadMemoryPrompt } from '../../core/prompt/load.js'
import { snapshotDirFor } from '../settings/app-data.js'
import { loadEffectiveConfig, type EffectiveConfig } from '../settings/config.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { memoryStyleFor } from '../settings/memory-style.js'

export function createDreamService(
  ctx: ProjectContext,
  opts: {
    client?: ModelClient
    onEvent?: (e: DreamEvent) => void
    review?: DreamDeps['review']
    config?: EffectiveConfig
    recordFor?: DreamDeps['recordFor']
    healthFindings?: DreamDeps['healthFindings']
  },
) {
  const memoryDir = getAutoMemPath(ctx)
  const config = opts.config ?? loadEffectiveConfig(ctx)
  return createAutoDream({
    memoryDir,
    scanner: scannerFor(ctx),
    transcriptDir: getProjectTranscriptDir(ctx),
    snapshotDir: snapshotDirFor(ctx, memoryDir),
    client: opts.client,
    minHours: config.dreamMinHours.value,
    minSessions: config.dreamMinSessions.value,
    cwd: ctx.projectRoot,
    onEvent: opts.onEvent,
    review: opts.review,
    recordFor: opts.recordFor,
    healthFindings: opts.healthFindings,
    enabled: () => {
      if (!config.dreamEnabled.value)
        return { ok: false, reason: 'consolidation is switched off in settings' }
      const auto = getAutoMemoryEnablement(ctx)
      return auto.enabled ? { ok: true } : { ok: false, reason: `auto memory is off: ${auto.reason}` }
    },
    memoryStyle: (headers) => memoryStyleFor(ctx, headers, config.memoryFormat.value),
    systemPrompt: async (format) => (await loadMemoryPrompt(ctx, { format })) ?? '',
  })
}
