import { unlink } from 'node:fs/promises'
import { ConflictError, readIfExists, writeFileAtomic, writeTarget } from './atomic-write.js'
import { withFileLock } from './file-lock.js'

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

/**
 * Puts `content` at `absPath` (null: deletes it) atomically, through `record`, under the file's
 * lock. With `expected` (what the caller read and computed `content` from; null: no file), a file
 * that holds anything else by then is left alone and a ConflictError thrown: a change made since
 * that read is never lost to this write.
 */
export async function putFile(
  absPath: string,
  content: string | null,
  record: RecordedWrite = unrecordedWrite,
  expected?: string | null,
) {
  await record(absPath, () =>
    withFileLock(absPath, async () => {
      const before = await readIfExists(absPath)
      if (expected !== undefined && before !== expected)
        throw new ConflictError(absPath, before, content ?? '')
      // A file its owner made read-only keeps its text; it may still be deleted, as `rm -f` does.
      if (content === null)
        await unlink(absPath).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'ENOENT') throw e
        })
      else await writeFileAtomic(await writeTarget(absPath), content, { refuseReadOnly: true })
      return { before, after: content }
    }),
  )
}

/**
 * putFile over what the caller read (`expected`; null: no file) only: false, and nothing written,
 * when the file holds anything else by then. For callers that leave such a file to whoever saved it.
 */
export async function putFileOver(
  absPath: string,
  content: string | null,
  record: RecordedWrite | undefined,
  expected: string | null,
): Promise<boolean> {
  return (await putFileOrFind(absPath, content, record, expected)).written
}

/**
 * putFileOver that says what the file held instead (null: no file), as read under the lock: a
 * caller asked twice at once tells its own earlier write (`found` is `content`) from someone else's.
 */
export async function putFileOrFind(
  absPath: string,
  content: string | null,
  record: RecordedWrite | undefined,
  expected: string | null,
): Promise<{ written: true } | { written: false; found: string | null }> {
  try {
    await putFile(absPath, content, record, expected)
    return { written: true }
  } catch (e) {
    if (!(e instanceof ConflictError)) throw e
    return { written: false, found: e.current }
  }
}

/**
 * Many writes as one per file: the first write to a file opens one recorded write through `inner`
 * (so the file is claimed, and its `before` taken) and later writes to it go straight to disk;
 * `done()` closes each with the file's final content. History then holds one entry per file for
 * a whole batch (a "Fix all"), under the batch's writer and run.
 */
export function batchedWrite(inner: RecordedWrite): { record: RecordedWrite; done: () => Promise<void> } {
  const open = new Map<
    string,
    { before: string | null; finish: (o: WriteOutcome) => void; closed: Promise<void> }
  >()
  const record: RecordedWrite = async (absPath, write) => {
    if (!open.has(absPath)) {
      let started!: () => void
      const opened = new Promise<void>((resolve) => (started = resolve))
      let finish!: (o: WriteOutcome) => void
      const outcome = new Promise<WriteOutcome>((resolve) => (finish = resolve))
      const slot = { before: null as string | null, finish, closed: Promise.resolve() }
      slot.closed = inner(absPath, async () => {
        slot.before = await readIfExists(absPath)
        started()
        return outcome
      })
      // A recorder that fails before it writes fails this write too (and never leaves it waiting).
      await Promise.race([opened, slot.closed])
      open.set(absPath, slot)
    }
    await write()
  }
  const done = async () => {
    for (const [absPath, slot] of open)
      slot.finish({ before: slot.before, after: await readIfExists(absPath) })
    await Promise.all([...open.values()].map((s) => s.closed))
  }
  return { record, done }
}
