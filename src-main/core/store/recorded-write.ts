import { unlink } from 'node:fs/promises'
import { readIfExists, writeFileAtomic } from './atomic-write.js'

/** What one write did to one file (null: no file). */
export interface WriteOutcome {
  before: string | null
  after: string | null
}

/**
 * Runs one write to a file (by absolute path) on behalf of a writer, so history records it as
 * theirs with its exact before/after: the user's editor, an extraction run, a dream, a team pull,
 * a restore. The host's implementation also keeps its watcher from taking the write for someone
 * else's. Every writer of memory files goes through one of these.
 */
export type RecordedWrite = (absPath: string, write: () => Promise<WriteOutcome>) => Promise<void>

/** No history (tests, tools outside a workspace): just write. */
export const unrecordedWrite: RecordedWrite = async (_path, write) => {
  await write()
}

/** Puts `content` at `absPath` (null: deletes it) atomically, through `record`. */
export async function putFile(
  absPath: string,
  content: string | null,
  record: RecordedWrite = unrecordedWrite,
) {
  await record(absPath, async () => {
    const before = await readIfExists(absPath)
    if (content === null)
      await unlink(absPath).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e
      })
    else await writeFileAtomic(absPath, content)
    return { before, after: content }
  })
}
