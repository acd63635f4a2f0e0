import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { orIfMissing } from '../../../src-shared/errors.js'

export interface Appended {
  /** The complete lines appended since the offset (each ending in `\n`); "" when there are none. */
  text: string
  /** The byte offset after them: where the next read starts. */
  end: number
  /** The file is another one (shrunk, or replaced under the same name): `text` starts at its beginning. */
  restarted: boolean
  ino: number
}

/**
 * Reads what was appended to a line-based log since `offset`. A line still being written (no `\n`
 * yet) is left for the next read, cut at the byte, so a character split across two writes is never
 * decoded in halves. Undefined when the file does not exist, or is not a regular file.
 */
export async function readAppended(
  path: string,
  at: { offset: number; ino?: number },
): Promise<Appended | undefined> {
  // O_NONBLOCK: a FIFO under a watched name is not waited on; only a regular file is read.
  const fh = await orIfMissing(open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)), undefined)
  if (!fh) return undefined
  try {
    const st = await fh.stat()
    if (!st.isFile()) return undefined
    const restarted = st.size < at.offset || (at.ino !== undefined && at.ino !== -1 && st.ino !== at.ino)
    const start = restarted ? 0 : at.offset
    if (st.size === start) return { text: '', end: start, restarted, ino: st.ino }
    const buf = Buffer.alloc(st.size - start)
    const { bytesRead } = await fh.read(buf, 0, buf.length, start)
    const complete = buf.subarray(0, bytesRead).lastIndexOf(0x0a) + 1
    return { text: buf.subarray(0, complete).toString('utf8'), end: start + complete, restarted, ino: st.ino }
  } finally {
    await fh.close()
  }
}
