import getRawBody from 'raw-body'

export const TOO_LARGE = Symbol('request body too large')

/** A body in a content coding this server does not read (415), or that does not decode (400). */
export class BodyCodingError extends Error {
  constructor(
    readonly status: 400 | 415,
    message: string,
  ) {
    super(message)
  }
}

/** Content codings a body may come in, as the standard DecompressionStream names them. */
const FORMATS: Record<string, CompressionFormat> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate' }

type Request = NodeJS.ReadableStream & { headers?: Record<string, string | string[] | undefined> }

/**
 * A request body as UTF-8 text, or TOO_LARGE once it passes `limit` bytes: the rest is then
 * drained unread, so the server can still answer (413) on the same connection. For the app's web
 * transport and the team server alike; neither ever holds more than `limit` bytes of a body.
 * A gzip or deflate body (a script's client may compress what it sends) is decoded, and `limit`
 * counts what it decodes to as well as what was sent, so a small bomb is refused as a large body
 * is; any other coding gets BodyCodingError (415) rather than being read as text it is not.
 */
export async function readBodyWithin(req: Request, limit: number): Promise<string | typeof TOO_LARGE> {
  const coding = String(req.headers?.['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  if (coding === '' || coding === 'identity') return plainBody(req, limit)
  const format = FORMATS[coding]
  if (!format) {
    req.resume()
    throw new BodyCodingError(
      415,
      `Content-Encoding ${JSON.stringify(coding)} is not supported: send the body uncompressed, or as gzip or deflate`,
    )
  }
  return decodedBody(req, limit, format, coding)
}

async function plainBody(req: Request, limit: number): Promise<string | typeof TOO_LARGE> {
  try {
    return await getRawBody(req, { limit, encoding: 'utf8' })
  } catch (e) {
    if ((e as { type?: unknown }).type !== 'entity.too.large') throw e
    req.resume()
    return TOO_LARGE
  }
}

/**
 * The body through the standard DecompressionStream (src-shared has no Node built-ins). The
 * request is read by its events, not iterated: leaving an iteration early destroys the request,
 * and with it the connection the 413 goes back on.
 */
async function decodedBody(
  req: Request,
  limit: number,
  format: CompressionFormat,
  coding: string,
): Promise<string | typeof TOO_LARGE> {
  const stream = new DecompressionStream(format)
  const writer = stream.writable.getWriter()
  const reader = stream.readable.getReader()
  let sent = 0
  let stopped = false
  const stop = () => {
    stopped = true
    void reader.cancel().catch(() => undefined)
  }
  const onData = (chunk: Uint8Array | string) => {
    if (stopped) return
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk)
    sent += bytes.length
    if (sent > limit) return stop()
    writer.write(bytes).catch(() => undefined)
  }
  const onEnd = () => void writer.close().catch(() => undefined)
  const onError = (e: Error) => void writer.abort(e).catch(() => undefined)
  req.on('data', onData)
  req.once('end', onEnd)
  req.once('error', onError)
  req.once('aborted', () => onError(new Error('the request was aborted')))
  const text = new TextDecoder()
  let body = ''
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.length
      if (size > limit) stop()
      if (stopped) break
      body += text.decode(value, { stream: true })
    }
  } catch (e) {
    if (stopped) return TOO_LARGE
    stop()
    throw new BodyCodingError(400, `the body is not valid ${coding}: ${(e as Error).message}`)
  } finally {
    // What is left of the body is read and dropped: the connection stays usable for the answer.
    req.removeListener('data', onData)
    req.resume()
  }
  return stopped ? TOO_LARGE : body + text.decode()
}
