import type { Env } from '../../core/paths/context.js'

/** How long the model selector may take before the offline ranker answers instead. */
export const DEFAULT_SELECTOR_TIMEOUT_MS = 4000

export function selectorTimeoutMs(env: Env): number {
  return Number(env.MEMDIR_HOOK_SELECTOR_TIMEOUT_MS) || DEFAULT_SELECTOR_TIMEOUT_MS
}
