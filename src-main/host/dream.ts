import { createAutoDream, type DreamDeps, type DreamEvent } from '../core/dream/auto-dream.js'
import type { ModelClient } from '../core/model/client.js'
import { getAutoMemPath } from '../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../core/paths/context.js'
import { getAutoMemoryEnablement } from '../core/paths/enablement.js'
import { getProjectTranscriptDir } from '../core/paths/team-agent-paths.js'
import { loadMemoryPrompt } from '../core/prompt/load.js'
import { loadAppSettings, snapshotDirFor } from './app-data.js'

export function createDreamService(
  ctx: ProjectContext,
  opts: { client?: ModelClient; onEvent?: (e: DreamEvent) => void; review?: DreamDeps['review'] },
) {
  const memoryDir = getAutoMemPath(ctx)
  const settings = loadAppSettings(ctx)
  return createAutoDream({
    memoryDir,
    transcriptDir: getProjectTranscriptDir(ctx),
    snapshotDir: snapshotDirFor(ctx, memoryDir),
    client: opts.client,
    minHours: Number(ctx.env.MEMDIR_DREAM_MIN_HOURS) || settings.dreamMinHours,
    minSessions: Number(ctx.env.MEMDIR_DREAM_MIN_SESSIONS) || settings.dreamMinSessions,
    cwd: ctx.projectRoot,
    onEvent: opts.onEvent,
    review: opts.review,
    enabled: () => {
      if (settings.dreamEnabled === false)
        return { ok: false, reason: 'consolidation is switched off in settings' }
      const auto = getAutoMemoryEnablement(ctx)
      return auto.enabled ? { ok: true } : { ok: false, reason: `auto memory is off: ${auto.reason}` }
    },
    memoryFormat: () => settings.memoryFormat ?? 'auto',
    systemPrompt: async (format) => (await loadMemoryPrompt(ctx, { format })) ?? '',
  })
}
