import type { FileHandle } from 'node:fs/promises'
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
  /** The last bytes read (up to TAIL_BYTES, ending at `end`): pass them back to check the file still holds them. */
  tail: Buffer
}

/**
 * How much of what was read a reader keeps to recognise its file by. An inode number is no name
 * for a file: a log replaced twice (a prune writes a new file each time) can come back under the
 * old number, longer than the offset, with other bytes before it.
 */
const TAIL_BYTES = 1024

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
  at: { offset: number; ino?: number; tail?: Buffer },
): Promise<AppendedBytes | undefined> {
  // A FIFO under a watched name is not waited on: only a regular file is read.
  const opened = await openRegular(path).catch((e: unknown) => {
    rethrowUnless(isMissing(e) || e instanceof NotRegularFileError, e)
    return undefined
  })
  if (!opened) return undefined
  const { fh, st } = opened
  try {
    const restarted =
      st.size < at.offset ||
      (at.ino !== undefined && at.ino !== -1 && st.ino !== at.ino) ||
      !(await stillHolds(fh, at.offset, at.tail))
    const start = restarted ? 0 : at.offset
    const before = restarted ? Buffer.alloc(0) : (at.tail ?? Buffer.alloc(0))
    if (st.size === start) return { bytes: Buffer.alloc(0), end: start, restarted, ino: st.ino, tail: before }
    const buf = Buffer.alloc(st.size - start)
    const { bytesRead } = await fh.read(buf, 0, buf.length, start)
    const complete = buf.subarray(0, bytesRead).lastIndexOf(0x0a) + 1
    const bytes = buf.subarray(0, complete)
    return { bytes, end: start + complete, restarted, ino: st.ino, tail: tailOf(before, bytes) }
  } finally {
    await fh.close()
  }
}

/** The last TAIL_BYTES of what was read before and what was read now. */
export function tailOf(before: Buffer, now: Buffer): Buffer {
  if (now.length >= TAIL_BYTES) return Buffer.from(now.subarray(now.length - TAIL_BYTES))
  const both = Buffer.concat([before, now])
  return both.subarray(Math.max(0, both.length - TAIL_BYTES))
}

/** Whether the bytes just before `offset` are still `tail` (no tail: nothing to check). */
async function stillHolds(fh: FileHandle, offset: number, tail: Buffer | undefined): Promise<boolean> {
  if (!tail?.length || tail.length > offset) return true
  const buf = Buffer.alloc(tail.length)
  const { bytesRead } = await fh.read(buf, 0, tail.length, offset - tail.length)
  return bytesRead === tail.length && buf.equals(tail)
}

/** The same, decoded: the complete lines appended since `offset` as text. */
export async function readAppended(
  path: string,
  at: { offset: number; ino?: number; tail?: Buffer },
): Promise<Appended | undefined> {
  const got = await readAppendedBytes(path, at)
  if (!got) return undefined
  const { bytes, ...rest } = got
  return { text: bytes.toString('utf8'), ...rest }
}
