/** Small facts about Unicode text that more than one rule in src-shared states. */

/** `U+202E`: how a rule names a character (or a lone surrogate) without printing it raw. */
export const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

// A high surrogate not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The first UTF-16 surrogate of `s` without its pair (no file system or UTF-8 store keeps one). */
export const loneSurrogate = (s: string): string | undefined => LONE_SURROGATE.exec(s)?.[0]

/**
 * The first `n` UTF-16 units of `s`, one fewer where the cut would split a surrogate pair (an emoji,
 * a rarer CJK character): half a pair is written to a file as U+FFFD, a "�" in the user's text.
 */
export const cutText = (s: string, n: number): string =>
  s.slice(0, n > 0 && /[\ud800-\udbff]/.test(s[n - 1] ?? '') ? n - 1 : n)

// Every character a reader takes as the end of a line (CommonMark's, a terminal's, Unicode's).
const LINE_BREAKS = /[\n\r\v\f\u0085\u2028\u2029]/g

/**
 * `s` with each line break written as an escape (`\n`, `\u2028`): a file name someone else gave
 * (no Memdir write makes one so) shown on its one line, where a break would start a line an agent
 * reads as its own. Other characters stay as they are (a terminal shows its controls escaped).
 */
export const oneLine = (s: string): string =>
  s.replace(LINE_BREAKS, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )

/**
 * Which of `names` is `wanted`: itself, or else the one name that is `wanted` in another Unicode
 * form (NFC typed for an NFD name a Mac or a sync tool wrote, which Linux keeps apart). Undefined
 * when there is none, or more than one.
 */
export function spellingAmong(names: Iterable<string>, wanted: string): string | undefined {
  const nfc = wanted.normalize('NFC')
  const same = new Set<string>()
  for (const n of names) {
    if (n === wanted) return n
    if (n.normalize('NFC') === nfc) same.add(n)
  }
  return same.size === 1 ? [...same][0] : undefined
}
