import { rethrowUnless } from '../../../src-shared/errors.js'
import type Anthropic from '@anthropic-ai/sdk'
import type { ModelClient } from './client.js'

export interface SideQueryOptions {
  model: string
  system: string
  user: string
  maxTokens: number
  /** JSON schema the reply must follow (sent as output_config.format). */
  schema: Record<string, unknown>
  signal?: AbortSignal
}

export class SideQueryError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SideQueryError'
  }
}

function firstJsonObject(text: string): unknown {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end < start) throw new SideQueryError('the model reply holds no JSON object')
  try {
    return JSON.parse(text.slice(start, end + 1))
  } catch (e) {
    rethrowUnless(e instanceof SyntaxError, e)
    throw new SideQueryError('the model reply is not valid JSON')
  }
}

/** A one-shot, tool-free call whose output is constrained to a JSON schema; returns the parsed object. */
export async function sideQuery(client: ModelClient, opts: SideQueryOptions): Promise<unknown> {
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: opts.model,
    max_tokens: opts.maxTokens,
    system: opts.system,
    messages: [{ role: 'user', content: opts.user }],
    output_config: { format: { type: 'json_schema', schema: opts.schema } },
  }
  const msg = await client.createMessage(params, { signal: opts.signal })
  const textOut = msg.content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('')
  return firstJsonObject(textOut)
}
