import { createModelClient, type ClientOptions, type ModelClient } from '../core/model/client.js'
import { resolveModelConfig, type ModelConfig, type ModelSettings } from '../core/model/config.js'
import type { Env } from '../core/paths/context.js'

export interface ModelRuntime {
  config: ModelConfig
  /** Undefined without credentials: recall uses the offline ranker, extraction says it needs a model. */
  client?: ModelClient
}

export function createModelRuntime(
  env: Env,
  settings: ModelSettings = {},
  opts: ClientOptions = {},
): ModelRuntime {
  const config = resolveModelConfig(env, settings)
  return { config, client: createModelClient(config, opts) }
}
