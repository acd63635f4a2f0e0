import {
  sendEvents,
  startRecordingServer,
  type FakeProvider,
  type ModelTurn,
  type ProviderRequest,
} from './recording-server.js'

/**
 * A fake of OpenAI's Responses API (`POST /v1/responses`, streamed) as the Codex CLI calls it
 * through a custom `model_providers` entry with `wire_api = "responses"`. `decide` picks each turn.
 *
 * Codex offers an MCP server's tools as one `namespace` tool (`mcp__<server>`); a call names the
 * namespace and the tool.
 */
export interface ResponsesItem {
  type?: string
  role?: string
  name?: string
  namespace?: string
  call_id?: string
  output?: unknown
  content?: unknown
}

let calls = 0

export function responsesInput(req: ProviderRequest): ResponsesItem[] {
  return (req.body.input as ResponsesItem[] | undefined) ?? []
}

/** The tool names offered, namespaced tools as `namespace/tool`. */
export function responsesTools(req: ProviderRequest): string[] {
  type Tool = { type?: string; name?: string; tools?: Tool[] }
  return ((req.body.tools as Tool[] | undefined) ?? []).flatMap((t) =>
    t.type === 'namespace' ? (t.tools ?? []).map((x) => `${t.name}/${x.name}`) : [t.name ?? t.type ?? ''],
  )
}

export function startFakeResponses(decide: (req: ProviderRequest) => ModelTurn): Promise<FakeProvider> {
  return startRecordingServer((req, res) => {
    if (req.method !== 'POST' || !req.path.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          error: { message: `the fake serves POST /v1/responses, not ${req.method} ${req.path}` },
        }),
      )
      return
    }
    const turn = decide(req)
    const n = ++calls
    const item =
      'call' in turn
        ? (() => {
            const [namespace, name] = turn.call.name.includes('/')
              ? turn.call.name.split('/')
              : [undefined, turn.call.name]
            return {
              type: 'function_call',
              id: `fc_${n}`,
              call_id: `call_${n}`,
              ...(namespace ? { namespace } : {}),
              name,
              arguments: JSON.stringify(turn.call.args),
            }
          })()
        : {
            type: 'message',
            id: `msg_${n}`,
            role: 'assistant',
            content: [{ type: 'output_text', text: turn.text, annotations: [] }],
          }
    const id = `resp_${n}`
    sendEvents(
      res,
      [
        { type: 'response.created', response: { id } },
        { type: 'response.output_item.added', output_index: 0, item },
        { type: 'response.output_item.done', output_index: 0, item },
        {
          type: 'response.completed',
          response: {
            id,
            output: [item],
            usage: {
              input_tokens: 10,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 5,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 15,
            },
          },
        },
      ],
      true,
    )
  })
}
