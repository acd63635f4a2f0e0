import { isMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { NotRegularFileError, openRegular } from './regular-file.js'

export interface Appended {
  /** The complete lines appended since the offset (each ending in `\n`); "" when there are none. */
  text: string
  /** The byte offset after them: where the next read starts. */
  end: number
  /** The file is another one (shrunk, or replaced under the same name): `text` starts at its beginning. */
  restarted: boolean
  ino: number
}

/** What readAppendedBytes returns: the complete lines as bytes, not yet decoded. */
export type AppendedBytes = Omit<Appended, 'text'> & { bytes: Buffer }

/**
 * Reads what was appended to a line-based log since `offset`, as bytes (for a reader that decodes
 * only the lines it wants: a long transcript is tens of MB). A line still being written (no `\n`
 * yet) is left for the next read, cut at the byte, so a character split across two writes is never
 * decoded in halves. Undefined when the file does not exist, or is not a regular file.
 */
export async function readAppendedBytes(
  path: string,
  at: { offset: number; ino?: number },
): Promise<AppendedBytes | undefined> {
  // A FIFO under a watched name is not waited on: only a regular file is read.
  const opened = await openRegular(path).catch((e: unknown) => {
    rethrowUnless(isMissing(e) || e instanceof NotRegularFileError, e)
    return undefined
  })
  if (!opened) return undefined
  const { fh, st } = opened
  try {
    const restarted = st.size < at.offset || (at.ino !== undefined && at.ino !== -1 && st.ino !== at.ino)
    const start = restarted ? 0 : at.offset
    if (st.size === start) return { bytes: Buffer.alloc(0), end: start, restarted, ino: st.ino }
    const buf = Buffer.alloc(st.size - start)
    const { bytesRead } = await fh.read(buf, 0, buf.length, start)
    const complete = buf.subarray(0, bytesRead).lastIndexOf(0x0a) + 1
    return { bytes: buf.subarray(0, complete), end: start + complete, restarted, ino: st.ino }
  } finally {
    await fh.close()
  }
}

/** The same, decoded: the complete lines appended since `offset` as text. */
export async function readAppended(
  path: string,
  at: { offset: number; ino?: number },
): Promise<Appended | undefined> {
  const got = await readAppendedBytes(path, at)
  if (!got) return undefined
  const { bytes, ...rest } = got
  return { text: bytes.toString('utf8'), ...rest }
}
