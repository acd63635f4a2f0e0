/**
 * The one rule for what a team entry may hold, on both sides of the wire: the team client does not
 * push and does not write what breaks it, and the team server refuses it (422). Text as a file and
 * every store keep it: no NUL (PostgreSQL cannot hold one in text, and a memory with one is not
 * text) and well-formed UTF-16 (a lone surrogate is stored as U+FFFD, so the server would answer
 * 200 for content it did not store).
 */

import { indexLinkProblem } from './index-links.js'
import { codePoint, loneSurrogate } from './unicode.js'

/** Why `text` cannot be a team entry's content, or undefined when it can. */
export function teamEntryTextProblem(text: string): string | undefined {
  const nul = text.indexOf('\u0000')
  if (nul >= 0) {
    const line = text.slice(0, nul).split('\n').length
    return `holds a NUL character (line ${line}): a memory is text`
  }
  const lone = loneSurrogate(text)
  if (lone) return `is not well-formed Unicode (a lone surrogate, ${codePoint(lone)})`
  return undefined
}

/**
 * Why an entry cannot be stored or written under its key: text that is not text (above), or the
 * team index (`MEMORY.md`) linking out of team/. Every teammate's agent loads that index, so a link
 * in it to `../../…` or an absolute path would send theirs to a file outside team memory.
 */
export function teamEntryProblem(
  key: string,
  text: string,
): { kind: 'not_text' | 'link_outside'; message: string } | undefined {
  const notText = teamEntryTextProblem(text)
  if (notText) return { kind: 'not_text', message: notText }
  const outside = key === 'MEMORY.md' ? indexLinkProblem(text, 'team/') : undefined
  if (outside) return { kind: 'link_outside', message: `is the team index, and its ${outside}` }
  return undefined
}
