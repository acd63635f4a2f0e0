import { errnoOf, isMissing, MemdirError, messageOf } from '../../../src-shared/errors.js'
import { openRegular, readRegularFile } from '../store/regular-file.js'

/** More than any session writes; past it a transcript is refused rather than read into memory whole. */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024

/**
 * A hook's `transcript_path` comes from whichever client ran it: a FIFO there held the prompt hook
 * (and the app answering for it) for ever, and `/dev/zero` had it read half a gigabyte before
 * failing. Only a regular file is read (store/regular-file.ts): nothing there is undefined, anything
 * else but a regular file (or one over the limit) is INVALID_INPUT.
 */
function asTranscriptFailure(e: unknown): undefined {
  if (isMissing(e)) return undefined
  if (['EISDIR', 'EINVAL', 'EFBIG'].includes(errnoOf(e) ?? ''))
    throw new MemdirError('INVALID_INPUT', `not a transcript: ${messageOf(e)}`)
  throw e
}

/** A transcript's file, opened for reading (its tail, say). Undefined when nothing is there. */
export async function openTranscript(path: string) {
  try {
    const { fh, st } = await openRegular(path)
    return { fh, size: st.size }
  } catch (e) {
    return asTranscriptFailure(e)
  }
}

/** A transcript's whole text (undefined when there is no file), within MAX_TRANSCRIPT_BYTES. */
export async function readTranscriptText(path: string): Promise<string | undefined> {
  try {
    return await readRegularFile(path, MAX_TRANSCRIPT_BYTES)
  } catch (e) {
    return asTranscriptFailure(e)
  }
}
