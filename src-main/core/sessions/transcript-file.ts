import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { MemdirError, orIfMissing } from '../../../src-shared/errors.js'

/** More than any session writes; past it a transcript is refused rather than read into memory whole. */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024

// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer (POSIX only).
const READ_NOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/**
 * A transcript's file, opened for reading: a regular file only. A hook's `transcript_path` comes from
 * whichever client ran it; a FIFO there held the prompt hook (and the app answering for it) for ever,
 * and `/dev/zero` had it read half a gigabyte before failing. Undefined when nothing is there.
 */
export async function openTranscript(path: string) {
  const fh = await orIfMissing(open(path, READ_NOW), undefined)
  if (!fh) return undefined
  const st = await fh.stat()
  if (!st.isFile()) {
    await fh.close()
    throw new MemdirError('INVALID_INPUT', `${path} is not a transcript: it is not a regular file`)
  }
  return { fh, size: st.size }
}

/** A transcript's whole text (undefined when there is no file), within MAX_TRANSCRIPT_BYTES. */
export async function readTranscriptText(path: string): Promise<string | undefined> {
  const opened = await openTranscript(path)
  if (!opened) return undefined
  const { fh, size } = opened
  try {
    if (size > MAX_TRANSCRIPT_BYTES)
      throw new MemdirError(
        'INVALID_INPUT',
        `${path} is ${Math.round(size / 2 ** 20)} MiB; Memdir reads transcripts of at most ${MAX_TRANSCRIPT_BYTES / 2 ** 20} MiB`,
      )
    const buf = Buffer.alloc(size)
    let got = 0
    while (got < size) {
      const { bytesRead } = await fh.read(buf, got, size - got, got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    return buf.subarray(0, got).toString('utf8')
  } finally {
    await fh.close()
  }
}
