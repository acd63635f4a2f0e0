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
