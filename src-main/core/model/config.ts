import type { Env } from '../paths/context.js'

export const DEFAULT_SELECTOR_MODEL = 'claude-sonnet-4-5'
export const DEFAULT_AGENT_MODEL = 'claude-sonnet-4-5'

export interface ModelConfig {
  apiKey?: string
  authToken?: string
  /** Any Messages-API-compatible endpoint; the SDK default when unset. */
  baseURL?: string
  /** Sonnet-class model for the recall selector side query. */
  selectorModel: string
  /** Model for the forked extraction / dream agents. */
  agentModel: string
}

export interface ModelSettings {
  apiKey?: string
  baseURL?: string
  selectorModel?: string
  agentModel?: string
}

/** From env (ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN / ANTHROPIC_BASE_URL, MEMDIR_*_MODEL), then app settings. */
export function resolveModelConfig(env: Env, settings: ModelSettings = {}): ModelConfig {
  return {
    apiKey: env.ANTHROPIC_API_KEY || settings.apiKey || undefined,
    authToken: env.ANTHROPIC_AUTH_TOKEN || undefined,
    baseURL: env.ANTHROPIC_BASE_URL || settings.baseURL || undefined,
    selectorModel: env.MEMDIR_SELECTOR_MODEL || settings.selectorModel || DEFAULT_SELECTOR_MODEL,
    agentModel: env.MEMDIR_AGENT_MODEL || settings.agentModel || DEFAULT_AGENT_MODEL,
  }
}

export function hasModelCredentials(config: ModelConfig): boolean {
  return Boolean(config.apiKey || config.authToken)
}
