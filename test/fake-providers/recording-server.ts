import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a fake provider received, its JSON body parsed. */
export interface ProviderRequest {
  method: string
  path: string
  body: Record<string, unknown>
}

/** What a fake model does next: call one tool, or answer with text. */
export type ModelTurn = { call: { name: string; args: Record<string, unknown> } } | { text: string }

export interface FakeProvider {
  url: string
  requests: ProviderRequest[]
  close(): Promise<void>
}

/**
 * A loopback HTTP server that records every request and lets `handle` write the reply. The fakes
 * for other agents' model APIs sit on it; a handler that throws answers 500 with the message, so a
 * test sees the fake's mistake in the agent's output.
 */
export async function startRecordingServer(
  handle: (req: ProviderRequest, res: ServerResponse) => void,
): Promise<FakeProvider> {
  const requests: ProviderRequest[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: Record<string, unknown> = {}
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {}
      } catch {
        body = { unparsed: raw }
      }
      const recorded = { method: req.method ?? 'GET', path: req.url ?? '/', body }
      requests.push(recorded)
      try {
        handle(recorded, res)
      } catch (e) {
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(e instanceof Error ? e.message : String(e))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Writes server-sent events, one JSON object each (`event:` lines when `named`). */
export function sendEvents(res: ServerResponse, events: Record<string, unknown>[], named: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const ev of events)
    res.write(`${named ? `event: ${String(ev.type)}\n` : ''}data: ${JSON.stringify(ev)}\n\n`)
  res.end()
}
