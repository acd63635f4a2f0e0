import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { formatBytes, MAX_MEMORY_BYTES } from '../../src-shared/limits.js'
import { messageOf } from '../../src-shared/errors.js'

/**
 * The largest JSON-RPC message `memdir mcp` reads: a memory at the size limit, with room for JSON
 * escaping. Anything longer is answered with an error (the SDK's own transport re-copies its buffer
 * on every chunk and gives up, closing the server, at 10 MB).
 */
export const MAX_MCP_MESSAGE_BYTES = 2 * MAX_MEMORY_BYTES + 64 * 1024

const INVALID_REQUEST = -32600
const INVALID_PARAMS = -32602

/**
 * The request id of a message too long to parse, so the error can answer it: a top-level `"id"`
 * near its start or its end (the SDK's client writes it last).
 */
function idIn(head: string, tail: string): string | number | null {
  const id = /"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.){0,200}")/
  const m = id.exec(head) ?? [...tail.matchAll(new RegExp(id.source, 'g'))].at(-1)
  if (!m) return null
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1])
}

const EDGE = 4096

const overLimit = (what: string) =>
  `${what}: memdir takes at most ${formatBytes(MAX_MEMORY_BYTES)} of memory content per write. Nothing was written; keep a memory to one fact in a few lines.`

/** A memory_write whose content (name, description, body) is over the memory size limit, or undefined. */
function oversizedWrite(message: JSONRPCMessage): number | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined
  const params = message.params as { name?: unknown; arguments?: Record<string, unknown> } | undefined
  if (params?.name !== 'memory_write' || !params.arguments) return undefined
  const { name, description, body } = params.arguments
  const bytes = [name, description, body].reduce<number>(
    (n, v) => n + (typeof v === 'string' ? Buffer.byteLength(v) : 0),
    0,
  )
  return bytes > MAX_MEMORY_BYTES ? bytes : undefined
}

/**
 * MCP over stdio with a bound: one JSON-RPC message per line, read in linear time; a line over
 * MAX_MCP_MESSAGE_BYTES is skipped without being held in memory and answered with a JSON-RPC
 * error naming the limit, and so is a memory_write whose content is over the memory size limit.
 * The server stays up either way.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  private chunks: Buffer[] = []
  private size = 0
  /** A line over the limit being skipped: its start and end (for the request id), its length so far. */
  private skipping?: { head: string; tail: Buffer; size: number }

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly ondata = (chunk: Buffer) => {
    let rest = chunk
    for (;;) {
      const nl = rest.indexOf(0x0a)
      const part = nl < 0 ? rest : rest.subarray(0, nl)
      this.take(part)
      if (nl < 0) return
      this.endLine()
      rest = rest.subarray(nl + 1)
    }
  }

  private take(part: Buffer) {
    if (this.skipping) {
      this.skipping.size += part.length
      this.skipping.tail = Buffer.concat([this.skipping.tail, part]).subarray(-EDGE)
      return
    }
    if (this.size + part.length > MAX_MCP_MESSAGE_BYTES) {
      const head = Buffer.concat([...this.chunks, part.subarray(0, EDGE)])
        .subarray(0, EDGE)
        .toString('utf8')
      this.skipping = { head, tail: part.subarray(-EDGE), size: this.size + part.length }
      this.chunks = []
      this.size = 0
      return
    }
    this.chunks.push(part)
    this.size += part.length
  }

  private endLine() {
    if (this.skipping) {
      const { head, tail, size } = this.skipping
      this.skipping = undefined
      void this.refuse(
        idIn(head, tail.toString('utf8')),
        INVALID_REQUEST,
        overLimit(`a request of ${formatBytes(size)}`),
      )
      return
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '')
    this.chunks = []
    this.size = 0
    if (!line.trim()) return
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(line)
    } catch (e) {
      this.onerror?.(new Error(`not a JSON-RPC message: ${messageOf(e)}`))
      return
    }
    const oversized = oversizedWrite(message)
    if (oversized !== undefined && 'id' in message)
      void this.refuse(
        message.id ?? null,
        INVALID_PARAMS,
        overLimit(`memory_write with ${formatBytes(oversized)} of content`),
      )
    else this.onmessage?.(message)
  }

  private refuse(id: string | number | null, code: number, message: string) {
    // JSON-RPC answers a request it could not read with a null id.
    return this.send({ jsonrpc: '2.0', id: id as string | number, error: { code, message } })
  }

  private readonly onerrorEvent = (e: unknown) =>
    this.onerror?.(e instanceof Error ? e : new Error(messageOf(e)))

  async start(): Promise<void> {
    this.stdin.on('data', this.ondata)
    this.stdin.on('error', this.onerrorEvent)
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.ondata)
    this.stdin.off('error', this.onerrorEvent)
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause()
    this.chunks = []
    this.onclose?.()
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve()
      else this.stdout.once('drain', () => resolve())
    })
  }
}
