/**
 * The value of a JSON text, or `fallback` when the text is not JSON. Only the parse error is
 * caught: a caller decides what "not JSON" means where it reads (a 400, a skipped line, a default).
 */
export function parseJsonOr<F>(text: string, fallback: F): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (e) {
    if (e instanceof SyntaxError) return fallback
    throw e
  }
}
