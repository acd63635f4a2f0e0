import {
  sendEvents,
  startRecordingServer,
  type FakeProvider,
  type ModelTurn,
  type ProviderRequest,
} from './recording-server.js'

/**
 * A fake of the Gemini API as the Gemini CLI calls it with `GOOGLE_GEMINI_BASE_URL`:
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` (and the unstreamed
 * `:generateContent`). `decide` picks each turn. The CLI names an MCP tool `mcp_<server>_<tool>`.
 */
export interface GeminiContent {
  role?: string
  parts?: {
    text?: string
    functionCall?: { name: string; args?: unknown }
    functionResponse?: { name: string; response?: unknown }
  }[]
}

export function geminiContents(req: ProviderRequest): GeminiContent[] {
  return (req.body.contents as GeminiContent[] | undefined) ?? []
}

export function geminiTools(req: ProviderRequest): string[] {
  type Tools = { functionDeclarations?: { name: string }[] }
  return ((req.body.tools as Tools[] | undefined) ?? []).flatMap((t) =>
    (t.functionDeclarations ?? []).map((d) => d.name),
  )
}

export function startFakeGemini(decide: (req: ProviderRequest) => ModelTurn): Promise<FakeProvider> {
  return startRecordingServer((req, res) => {
    const generate = /:(stream)?[gG]enerateContent/.exec(req.path)
    if (req.method !== 'POST' || !generate) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          error: { code: 404, message: `the fake serves generateContent, not ${req.method} ${req.path}` },
        }),
      )
      return
    }
    const turn = decide(req)
    const parts =
      'call' in turn
        ? [{ functionCall: { name: turn.call.name, args: turn.call.args } }]
        : [{ text: turn.text }]
    const chunk = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'fake',
    }
    if (generate[1]) return sendEvents(res, [chunk], false)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(chunk))
  })
}
