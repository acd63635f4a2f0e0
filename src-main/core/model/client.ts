import Anthropic from '@anthropic-ai/sdk'
import { hasModelCredentials, type ModelConfig } from './config.js'

export interface ModelClient {
  sdk: Anthropic
  config: ModelConfig
}

export interface ClientOptions {
  maxRetries?: number
  timeoutMs?: number
}

/** The one place an Anthropic client is made. Undefined without credentials: callers degrade. */
export function createModelClient(config: ModelConfig, opts: ClientOptions = {}): ModelClient | undefined {
  if (!hasModelCredentials(config)) return undefined
  const sdk = new Anthropic({
    apiKey: config.apiKey ?? null,
    authToken: config.authToken ?? null,
    baseURL: config.baseURL,
    maxRetries: opts.maxRetries ?? 2,
    timeout: opts.timeoutMs ?? 120_000,
  })
  return { sdk, config }
}
