import { open } from 'node:fs/promises'
import { errnoOf, isMissing, MemdirError, messageOf, orIfMissing } from '../../../src-shared/errors.js'
import { notRegularFile, READ_NOW, readRegularFile } from '../store/regular-file.js'

/** More than any session writes; past it a transcript is refused rather than read into memory whole. */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024

/**
 * A hook's `transcript_path` comes from whichever client ran it: a FIFO there held the prompt hook
 * (and the app answering for it) for ever, and `/dev/zero` had it read half a gigabyte before
 * failing. Only a regular file is read (store/regular-file.ts); anything else is INVALID_INPUT.
 */
const notATranscript = (e: unknown) => new MemdirError('INVALID_INPUT', `not a transcript: ${messageOf(e)}`)

/** A transcript's file, opened for reading (its tail, say). Undefined when nothing is there. */
export async function openTranscript(path: string) {
  const fh = await orIfMissing(open(path, READ_NOW), undefined)
  if (!fh) return undefined
  const st = await fh.stat()
  if (!st.isFile()) {
    await fh.close()
    throw notATranscript(notRegularFile(path, st))
  }
  return { fh, size: st.size }
}

/** A transcript's whole text (undefined when there is no file), within MAX_TRANSCRIPT_BYTES. */
export async function readTranscriptText(path: string): Promise<string | undefined> {
  try {
    return await readRegularFile(path, MAX_TRANSCRIPT_BYTES)
  } catch (e) {
    if (isMissing(e)) return undefined
    if (['EISDIR', 'EINVAL', 'EFBIG'].includes(errnoOf(e) ?? '')) throw notATranscript(e)
    throw e
  }
}
