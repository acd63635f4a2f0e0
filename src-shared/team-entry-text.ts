/**
 * The one rule for what a team entry may hold, on both sides of the wire: the team client does not
 * push and does not write what breaks it, and the team server refuses it (422). Text as a file and
 * every store keep it: no NUL (PostgreSQL cannot hold one in text, and a memory with one is not
 * text) and well-formed UTF-16 (a lone surrogate is stored as U+FFFD, so the server would answer
 * 200 for content it did not store).
 */

// A high surrogate not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const codePoint = (unit: string) => `U+${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`

/** Why `text` cannot be a team entry's content, or undefined when it can. */
export function teamEntryTextProblem(text: string): string | undefined {
  const nul = text.indexOf('\u0000')
  if (nul >= 0) {
    const line = text.slice(0, nul).split('\n').length
    return `holds a NUL character (line ${line}): a memory is text`
  }
  const lone = LONE_SURROGATE.exec(text)
  if (lone) return `is not well-formed Unicode (a lone surrogate, ${codePoint(lone[0])})`
  return undefined
}

/** Whether `s` has a UTF-16 surrogate without its pair (no file system or UTF-8 store can keep it). */
export const hasLoneSurrogate = (s: string) => LONE_SURROGATE.test(s)
