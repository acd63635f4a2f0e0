/** Small facts about Unicode text that more than one rule in src-shared states. */

/** `U+202E`: how a rule names a character (or a lone surrogate) without printing it raw. */
export const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

// A high surrogate not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The first UTF-16 surrogate of `s` without its pair (no file system or UTF-8 store keeps one). */
export const loneSurrogate = (s: string): string | undefined => LONE_SURROGATE.exec(s)?.[0]
