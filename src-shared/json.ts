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

/**
 * A text file's byte order mark (U+FEFF, as Notepad writes one) and the rest. Claude Code reads a
 * settings file that starts with one; JSON.parse does not, so a reader strips it first, and an
 * editor writes it back where it was.
 */
export function splitByteOrderMark(text: string): { bom: '' | '\uFEFF'; rest: string } {
  return text.startsWith('\uFEFF') ? { bom: '\uFEFF', rest: text.slice(1) } : { bom: '', rest: text }
}
