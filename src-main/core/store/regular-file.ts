import { constants, fstatSync, openSync, closeSync, type Stats } from 'node:fs'
import { open } from 'node:fs/promises'
import { decodeText } from './text-encoding.js'

/**
 * Reading only regular files. A name in the memory dir, a path a model gives the agents' Read or
 * Grep, or a hook's transcript_path can be a FIFO (opening it waits for a writer: for ever), a
 * device (`/dev/zero` never ends) or a directory. Each is opened without blocking (O_NONBLOCK, POSIX)
 * and checked on its descriptor before a byte is read; what is not a regular file fails as a
 * file-system error (EISDIR, or EINVAL) that readers already handle.
 */
export const READ_NOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/** A path that is not a regular file, coded as the file system would code it. */
export class NotRegularFileError extends Error {
  readonly code: 'EISDIR' | 'EINVAL'
  constructor(path: string, st: Stats) {
    const what = st.isDirectory()
      ? 'a directory'
      : st.isFIFO()
        ? 'a FIFO'
        : st.isCharacterDevice() || st.isBlockDevice()
          ? 'a device'
          : st.isSocket()
            ? 'a socket'
            : 'not a regular file'
    super(`${path} is ${what}, not a file Memdir reads`)
    this.code = st.isDirectory() ? 'EISDIR' : 'EINVAL'
  }
}

/** A descriptor on `path` and its stats, when it is a regular file (else it throws, closed). */
export function openRegularSync(path: string): { fd: number; st: Stats } {
  const fd = openSync(path, READ_NOW)
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new NotRegularFileError(path, st)
    return { fd, st }
  } catch (e) {
    closeSync(fd)
    throw e
  }
}

/** The same, as a FileHandle: the caller closes it. */
export async function openRegular(path: string) {
  const fh = await open(path, READ_NOW)
  try {
    const st = await fh.stat()
    if (!st.isFile()) throw new NotRegularFileError(path, st)
    return { fh, st }
  } catch (e) {
    await fh.close()
    throw e
  }
}

/**
 * The whole text of a regular file of at most `maxBytes` (a bigger one fails with EFBIG, naming
 * both sizes), read from one descriptor.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<string> {
  const { fh, st } = await openRegular(path)
  try {
    if (st.size > maxBytes)
      throw Object.assign(
        new Error(
          `${path} is ${st.size.toLocaleString('en-US')} bytes; at most ${maxBytes.toLocaleString('en-US')} are read`,
        ),
        { code: 'EFBIG' },
      )
    const buf = Buffer.alloc(st.size)
    let got = 0
    while (got < st.size) {
      const { bytesRead } = await fh.read(buf, got, st.size - got, got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    return decodeText(buf, got)
  } finally {
    await fh.close()
  }
}

/** The first `maxBytes` of a regular file, as text (a character cut at the end becomes U+FFFD). */
export async function readRegularHead(path: string, maxBytes: number): Promise<string> {
  const { fh, st } = await openRegular(path)
  try {
    const buf = Buffer.alloc(Math.min(st.size, maxBytes))
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    return decodeText(buf, bytesRead)
  } finally {
    await fh.close()
  }
}

/** The whole text of a regular file, however long (for files Memdir or its user keep). */
export const readTextFile = (path: string) => readRegularFile(path, Number.MAX_SAFE_INTEGER)
