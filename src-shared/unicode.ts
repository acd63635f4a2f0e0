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

/**
 * C0 and C1 controls, DEL, zero-width and invisible marks, bidi embeddings, overrides and isolates,
 * line and paragraph separators, the BOM: characters that break a line or hide or reorder text
 * where a name is shown (terminals, MEMORY.md, what an agent reads).
 */
export const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/

const UNSAFE_ALL = new RegExp(UNSAFE_CHARS.source, 'g')

/**
 * `s` with each of UNSAFE_CHARS written as an escape (`\n`, `\u202e`): a file name someone else
 * gave (no Memdir write makes one so) shown on one line, as it is, without a line of its own.
 */
export const printable = (s: string): string =>
  s.replace(UNSAFE_ALL, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
