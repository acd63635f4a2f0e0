import getRawBody from 'raw-body'

export const TOO_LARGE = Symbol('request body too large')

/**
 * A request body as UTF-8 text, or TOO_LARGE once it passes `limit` bytes: the rest is then
 * drained unread, so the server can still answer (413) on the same connection. For the app's web
 * transport and the team server alike; neither ever holds more than `limit` bytes of a body.
 */
export async function readBodyWithin(
  req: NodeJS.ReadableStream,
  limit: number,
): Promise<string | typeof TOO_LARGE> {
  try {
    return await getRawBody(req, { limit, encoding: 'utf8' })
  } catch (e) {
    if ((e as { type?: unknown }).type !== 'entity.too.large') throw e
    req.resume()
    return TOO_LARGE
  }
}
