import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A content block the fake replies with (the Messages API shapes it needs). */
export type FakeBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The body exactly as the SDK sent it: byte-level assertions use this. */
  rawBody: string
  body: Record<string, unknown>
}

export type FakeStep =
  | {
      kind: 'message'
      content: FakeBlock[]
      stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens'
      model?: string
      /** Hold the reply this long (to test work that overlaps a run). */
      delayMs?: number
      gate?: Gate
    }
  | {
      kind: 'error'
      status: number
      type?: string
      message?: string
      headers?: Record<string, string>
      delayMs?: number
      gate?: Gate
    }
  /** Decide from the request (e.g. echo a tool result, pick by system prompt). */
  | { kind: 'dynamic'; respond: (req: RecordedRequest) => FakeStep }

export const text = (t: string): FakeBlock => ({ type: 'text', text: t })

let toolIds = 0
export const toolUse = (
  name: string,
  input: Record<string, unknown>,
  id = `toolu_fake_${++toolIds}`,
): FakeBlock => ({
  type: 'tool_use',
  id,
  name,
  input,
})

/** A reply held until the test releases it; `arrived` resolves when its request reaches the server. */
interface Gate {
  arrive: (req: RecordedRequest) => void
  released: Promise<void>
}

export interface HeldStep {
  step: FakeStep
  arrived: Promise<RecordedRequest>
  release: () => void
}

/**
 * The step answers only once the test calls `release()`: work that must overlap a model call
 * waits for `arrived` instead of guessing how long the call takes.
 */
export function held(step: Exclude<FakeStep, { kind: 'dynamic' }>): HeldStep {
  let arrive!: (req: RecordedRequest) => void
  let release!: () => void
  const arrived = new Promise<RecordedRequest>((r) => (arrive = r))
  const released = new Promise<void>((r) => (release = r))
  return { step: { ...step, gate: { arrive, released } }, arrived, release }
}

export const delayed = (ms: number, step: FakeStep): FakeStep =>
  step.kind === 'dynamic' ? step : { ...step, delayMs: ms }

/** One assistant turn; stop_reason follows from whether it calls tools. */
export const reply = (...content: FakeBlock[]): Extract<FakeStep, { kind: 'message' }> => ({
  kind: 'message',
  content,
  stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
})

export const failWith = (
  status: number,
  headers: Record<string, string> = {},
  message = 'scripted failure',
): FakeStep => ({
  kind: 'error',
  status,
  headers,
  message,
  type: status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error',
})

export interface FakeAnthropic {
  /** Base URL to give the SDK (`baseURL`). */
  url: string
  requests: RecordedRequest[]
  enqueue: (...steps: FakeStep[]) => void
  /** Steps not yet consumed. */
  pending: () => number
  close: () => Promise<void>
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

let msgIds = 0

function messageJson(step: Extract<FakeStep, { kind: 'message' }>, req: RecordedRequest) {
  return {
    id: `msg_fake_${++msgIds}`,
    type: 'message',
    role: 'assistant',
    model: step.model ?? (req.body.model as string) ?? 'fake-model',
    content: step.content,
    stop_reason: step.stop_reason ?? 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: Math.ceil(req.rawBody.length / 4), output_tokens: 16 },
  }
}

function sendSse(res: ServerResponse, msg: ReturnType<typeof messageJson>) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const send = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  send('message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null } })
  msg.content.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      })
      send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      })
    } else {
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      })
      send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      })
    }
    send('content_block_stop', { type: 'content_block_stop', index })
  })
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: msg.stop_reason, stop_sequence: null },
    usage: { output_tokens: msg.usage.output_tokens },
  })
  send('message_stop', { type: 'message_stop' })
  res.end()
}

/**
 * A loopback Messages-API server replaying scripted turns and recording every request.
 * Runs the real SDK end to end; an exhausted script answers 500 so a test never hangs.
 */
export async function startFakeAnthropic(
  script: FakeStep[] = [],
  opts: {
    /** Answers every request once the script is used up (a scripted client session). */ fallback?: FakeStep
    /**
     * The model's context window in tokens (counted as `usage` counts them, 4 characters each): a
     * request over it is refused as the API refuses one, 400 "prompt is too long: N tokens > M
     * maximum", without using a scripted step.
     */
    contextWindow?: number
  } = {},
): Promise<FakeAnthropic> {
  const queue = [...script]
  const requests: RecordedRequest[] = []
  const server = createServer(async (req, res) => {
    const rawBody = await readBody(req)
    let body: Record<string, unknown> = {}
    try {
      body = rawBody ? (JSON.parse(rawBody) as Record<string, unknown>) : {}
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bad JSON' } }),
      )
      return
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      rawBody,
      body,
    }
    requests.push(recorded)
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no such route' } }))
      return
    }
    const tokens = Math.ceil(rawBody.length / 4)
    if (opts.contextWindow !== undefined && tokens > opts.contextWindow) {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `prompt is too long: ${tokens} tokens > ${opts.contextWindow} maximum`,
          },
        }),
      )
      return
    }
    let step = queue.shift() ?? opts.fallback ?? failWith(500, {}, 'fake-anthropic: script exhausted')
    while (step.kind === 'dynamic') step = step.respond(recorded)
    if (step.gate) {
      step.gate.arrive(recorded)
      await step.gate.released
    }
    if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs))
    if (step.kind === 'error') {
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers })
      res.end(
        JSON.stringify({ type: 'error', error: { type: step.type ?? 'api_error', message: step.message } }),
      )
      return
    }
    const msg = messageJson(step, recorded)
    if (body.stream === true) return sendSse(res, msg)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(msg))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...steps) => queue.push(...steps),
    pending: () => queue.length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
