import { isatty } from 'node:tty'

// C0 controls but tab, newline and a CRLF's CR; DEL and the C1 controls: what a terminal would act on.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g

/** A control character as `cat -v` shows it (`^[`, `^M`, `^?`), a C1 one as `<U+009B>`. */
const visible = (c: string) => {
  const n = c.charCodeAt(0)
  if (n < 0x20) return `^${String.fromCharCode(n + 64)}`
  if (n === 0x7f) return '^?'
  return `<U+${n.toString(16).toUpperCase().padStart(4, '0')}>`
}

/** `text` with every control character a terminal would act on shown instead (tab, newline and CRLF stay). */
export const withVisibleControls = (text: string): string => text.replace(CONTROL, visible)

/**
 * `write` for a terminal: what the CLI prints comes partly from memory files, and a teammate's
 * `description: "\e]0;…\a"` or `\e[2J` would retitle, clear or recolour the user's terminal (or
 * worse: some set the clipboard). On a terminal those characters are shown, not sent; a pipe or
 * file gets the text as it is.
 */
export function terminalSafe(fd: 1 | 2, write: (text: string) => void): (text: string) => void {
  return isatty(fd) ? (text) => write(withVisibleControls(text)) : write
}
