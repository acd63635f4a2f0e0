/**
 * How a memory file's or index's bytes are text, as Claude Code 2.1.332 reads them: UTF-16LE when
 * the file starts with that byte order mark (what Windows PowerShell 5's `>` and `Out-File` write),
 * else UTF-8 (2.1.88 read every file as UTF-8: test/fixtures/memory-md/utf16.json). The mark stays
 * in the text as U+FEFF, as a UTF-8 one does; a file written again keeps its encoding (writeFileAtomic).
 */

export const isUtf16Le = (buf: Uint8Array, length = buf.length): boolean =>
  length >= 2 && buf[0] === 0xff && buf[1] === 0xfe

/** `buf[0, length)` as text (a UTF-16 unit cut at the end is left out). */
export function decodeText(buf: Buffer, length = buf.length): string {
  if (isUtf16Le(buf, length)) return buf.toString('utf16le', 0, length - (length % 2))
  return buf.toString('utf8', 0, length)
}

/** `text` in the encoding of a file that is UTF-16LE (`utf16`), its byte order mark first; else as it is. */
export function encodeLike(text: string, utf16: boolean): string | Buffer {
  if (!utf16) return text
  return Buffer.from(text.startsWith('\uFEFF') ? text : `\uFEFF${text}`, 'utf16le')
}
