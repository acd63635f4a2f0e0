import type Anthropic from '@anthropic-ai/sdk'
import { credentialProblem } from '../../../src-shared/credentials.js'
import { MemdirError } from '../../../src-shared/errors.js'
import { hasModelCredentials, type ModelConfig } from './config.js'

export interface ModelClient {
  config: ModelConfig
  /** One Messages API call. The SDK (over 1 MB of code) loads on the first: offline commands never pay for it. */
  createMessage(
    params: Anthropic.MessageCreateParamsNonStreaming,
    opts?: { signal?: AbortSignal },
  ): Promise<Anthropic.Message>
}

export interface ClientOptions {
  maxRetries?: number
  timeoutMs?: number
}

/** The one place an Anthropic client is made. Undefined without credentials: callers degrade. */
export function createModelClient(config: ModelConfig, opts: ClientOptions = {}): ModelClient | undefined {
  if (!hasModelCredentials(config)) return undefined
  let sdk: Promise<Anthropic> | undefined
  const load = () =>
    (sdk ??= import('@anthropic-ai/sdk').then(
      ({ default: Anthropic }) =>
        new Anthropic({
          apiKey: config.apiKey ?? null,
          authToken: config.authToken ?? null,
          baseURL: config.baseURL,
          maxRetries: opts.maxRetries ?? 2,
          timeout: opts.timeoutMs ?? 120_000,
        }),
    ))
  const problem =
    (config.apiKey ? credentialProblem('API key', config.apiKey) : undefined) ??
    (config.authToken ? credentialProblem('auth token', config.authToken) : undefined)
  return {
    config,
    createMessage: async (params, callOpts = {}) => {
      if (problem) throw new MemdirError('BAD_REQUEST', problem)
      return (await load()).messages.create(params, { signal: callOpts.signal })
    },
  }
}
