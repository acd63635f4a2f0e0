import { join, relative, sep } from 'node:path'
import type { PromptHookOutput, UserPromptSubmitHook } from '../../../src-shared/hook-input.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { Env } from '../../core/paths/context.js'
import { getAutoMemoryEnablement } from '../../core/paths/enablement.js'
import { createModelClient } from '../../core/model/client.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { RecallSession } from '../../core/recall/recall-session.js'
import { recalledInTranscript } from '../../core/sessions/client-memory.js'
import { isFsError, rethrowUnless } from '../../../src-shared/errors.js'
import { activityFileFor, appendActivity, newActivityItem } from '../../host/activity/activity-store.js'
import { getAppDataDir, loadAppSettings } from '../../host/settings/app-data.js'
import { cachedScan, termCacheFor } from '../../host/memories/memory-caches.js'
import { loadEffectiveConfig, modelConfigOf } from '../../host/settings/config.js'
import { createProjectContext } from '../../host/settings/project.js'
import { loadRecallState, pruneRecallStates, saveRecallState } from './recall-state.js'
import { inlineScanner } from '../../core/store/scan-worker-client.js'

/** How long the model selector may take before the offline ranker answers instead. */
export const DEFAULT_SELECTOR_TIMEOUT_MS = 4000

export interface PromptHookResult {
  output?: PromptHookOutput
  /** Why nothing was added (for the log). */
  skipped?: string
}

/**
 * UserPromptSubmit: recall for the prompt, minus what this session already surfaced and within
 * its 60 KiB budget. Returns the hook output, or nothing when there is nothing to add.
 */
export async function runPromptHook(input: UserPromptSubmitHook, env: Env): Promise<PromptHookResult> {
  // A hook runs before every prompt and nothing waits on its thread: it reads inline.
  let ctx = createProjectContext({ cwd: input.cwd, env, scan: 'inline' })
  // A key kept outside the settings file: its 0600 file, or the desktop app asked briefly (a prompt never waits long).
  if (loadAppSettings(ctx).secrets?.apiKey && !env.ANTHROPIC_API_KEY)
    ctx = await (await import('../../host/integrations/cli-secrets.js')).withCliSecrets(ctx, 300)
  const auto = getAutoMemoryEnablement(ctx)
  if (!auto.enabled) return { skipped: `auto memory is off: ${auto.reason}` }
  const memoryDir = getAutoMemPath(ctx)
  const stateDir = join(getAppDataDir(ctx), 'hooks', 'recall', sanitizePath(memoryDir))
  const state = await loadRecallState(stateDir, input.session_id)

  const timeoutMs = Number(env.MEMDIR_HOOK_SELECTOR_TIMEOUT_MS) || DEFAULT_SELECTOR_TIMEOUT_MS
  const client = createModelClient(modelConfigOf(loadEffectiveConfig(ctx)), { maxRetries: 0, timeoutMs })
  const session = new RecallSession(memoryDir, {
    client,
    // The selector's hard deadline; the offline ranker (no client) needs none.
    signal: client ? AbortSignal.timeout(timeoutMs) : undefined,
    offlineFallback: true,
    projectRoot: ctx.projectRoot,
    termCache: termCacheFor(ctx, memoryDir),
    scan: cachedScan(ctx, Infinity),
    scanner: inlineScanner,
  })
  state.surfaced.forEach((p) => session.surfaced.add(p))
  // What the client recalled itself in this session is in its context already.
  const byClient = await recalledInTranscript(input.transcript_path).catch((e: unknown) => {
    rethrowUnless(isFsError(e), e)
    return []
  })
  byClient.forEach((p) => session.surfaced.add(p))
  session.injectedBytes = state.injectedBytes
  // Only the model selector reads which tools the agent just used: the offline ranker needs no
  // transcript, so a hook without a model never parses the transcript's tail.
  const recentTools = client
    ? await import('../../core/sessions/recent-tools.js')
        .then((m) => m.recentToolsInTranscript(input.transcript_path))
        .catch(() => [])
    : []
  const outcome = await session.surface(input.prompt, recentTools)
  if (outcome.skipped) return { skipped: outcome.reason }
  if (!outcome.injections.length) return { skipped: 'no relevant memory' }

  saveRecallState(stateDir, input.session_id, {
    surfaced: [...session.surfaced],
    injectedBytes: session.injectedBytes,
  })
  if (state.fresh) await pruneRecallStates(stateDir) // once per session is often enough
  const files = outcome.result.memories.map((m) => relative(memoryDir, m.path).split(sep).join('/'))
  await appendActivity(
    activityFileFor(ctx, memoryDir),
    newActivityItem({
      kind: 'recall',
      level: 'info',
      source: 'hook',
      title: `Recalled ${files.length} ${files.length === 1 ? 'memory' : 'memories'} for a prompt`,
      detail: `${input.prompt.slice(0, 200)}${input.prompt.length > 200 ? '…' : ''}${
        outcome.result.mode === 'offline' ? ` (${outcome.result.note})` : ''
      }`,
      files,
    }),
  )
  return {
    output: {
      hookSpecificOutput: {
        hookEventName: 'UserPromptSubmit',
        additionalContext: outcome.injections.join('\n\n'),
      },
    },
  }
}
