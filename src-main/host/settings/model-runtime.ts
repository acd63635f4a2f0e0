import { createModelClient, type ClientOptions, type ModelClient } from '../../core/model/client.js'
import type { ModelConfig } from '../../core/model/config.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { loadEffectiveConfig, modelConfigOf, type EffectiveConfig } from './config.js'

export interface ModelRuntime {
  config: ModelConfig
  /** Undefined without credentials: recall uses the offline ranker, extraction says it needs a model. */
  client?: ModelClient
}

/** The model client from the effective configuration (environment over saved settings). */
export function createModelRuntime(config: EffectiveConfig, opts: ClientOptions = {}): ModelRuntime {
  const model = modelConfigOf(config)
  return { config: model, client: createModelClient(model, opts) }
}

/** For the CLI, hooks and MCP: the project's effective configuration, read now. */
export function modelRuntimeFor(ctx: ProjectContext, opts: ClientOptions = {}): ModelRuntime {
  return createModelRuntime(loadEffectiveConfig(ctx), opts)
}
