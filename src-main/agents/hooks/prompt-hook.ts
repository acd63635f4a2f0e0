import type { UserPromptSubmitHook } from '../../../src-shared/hook-input.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { Env } from '../../core/paths/context.js'
import { createModelClient } from '../../core/model/client.js'
import { inlineScanner } from '../../core/store/scan-worker-client.js'
import { cachedScan, termIndexFor } from '../../host/memories/memory-caches.js'
import { recallForPrompt, type PromptRecallResult } from '../../host/previews/prompt-recall.js'
import { selectorTimeoutMs } from '../../host/previews/selector-deadline.js'
import { loadAppSettings } from '../../host/settings/app-data.js'
import { loadEffectiveConfig, modelConfigOf } from '../../host/settings/config.js'
import { createProjectContext } from '../../host/settings/project.js'

export type PromptHookResult = PromptRecallResult

/**
 * UserPromptSubmit in the hook's own process (no running app took it): recall from the
 * header-cached scan and the term cache, with the model this process is configured for.
 */
export async function runPromptHook(input: UserPromptSubmitHook, env: Env): Promise<PromptHookResult> {
  // A hook runs before every prompt and nothing waits on its thread: it reads inline.
  let ctx = createProjectContext({ cwd: input.cwd, env, scan: 'inline' })
  // A key kept outside the settings file: its 0600 file, or the desktop app asked briefly (a prompt never waits long).
  if (loadAppSettings(ctx).secrets?.apiKey && !env.ANTHROPIC_API_KEY)
    ctx = await (await import('../../host/integrations/cli-secrets.js')).withCliSecrets(ctx, 300)
  const timeoutMs = selectorTimeoutMs(env)
  return recallForPrompt(ctx, input, {
    scan: cachedScan(ctx, Infinity),
    termCache: termIndexFor(ctx, getAutoMemPath(ctx)),
    scanner: inlineScanner,
    client: createModelClient(modelConfigOf(loadEffectiveConfig(ctx)), { maxRetries: 0, timeoutMs }),
    selectorTimeoutMs: timeoutMs,
  })
}
