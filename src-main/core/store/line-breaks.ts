/**
 * Line breaks of a file someone saved on Windows. The YAML library, models and browser text fields
 * hand text over with LF; what someone saved with CRLF keeps CRLF when Memdir writes it again.
 */

/** Whether every line break of `text` is CRLF; a file that mixes the two is left as it is. */
export const crlfOnly = (text: string | null | undefined): text is string =>
  !!text && text.includes('\r\n') && !/(?:^|[^\r])\n/.test(text)

export const toLf = (text: string) => text.replace(/\r\n/g, '\n')
export const toCrlf = (text: string) => text.replace(/\r?\n/g, '\r\n')

/**
 * `text` with CRLF where the text it replaces in a memory, `like`, has CRLF (its frontmatter block,
 * its body): what someone saved on Windows stays CRLF.
 */
export const lineBreaksLike = (text: string, like: string): string =>
  like.includes('\r\n') ? toCrlf(text) : text

/** `text` written over `like`: with CRLF when `like` has only CRLF and `text` has no CR of its own. */
export const crlfLike = (text: string, like: string | null | undefined): string =>
  crlfOnly(like) && !text.includes('\r') ? toCrlf(text) : text
