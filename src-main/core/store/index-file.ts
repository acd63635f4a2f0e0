import { lstat } from 'node:fs/promises'
import { MemdirError, isAbsent, rethrowUnless } from '../../../src-shared/errors.js'
import { readIfExists } from './atomic-write.js'
import { NotRegularFileError } from './regular-file.js'

/**
 * An index (MEMORY.md, team/MEMORY.md) as an agent loads it: its text, or null when there is none
 * to load — also when something other than a file has its name (a directory named MEMORY.md), which
 * Claude Code loads as it loads a missing index (checked with 2.1.88 and 2.1.337: test/fixtures/memory-md/not-a-file.ts).
 */
export async function readIndexText(path: string): Promise<string | null> {
  try {
    return await readIfExists(path)
  } catch (e) {
    rethrowUnless(e instanceof NotRegularFileError, e)
    return null
  }
}

/** What has an index's name when it is not a regular file ('a directory', 'a FIFO'…), else undefined. */
export async function indexNotAFile(path: string): Promise<string | undefined> {
  try {
    const st = await lstat(path)
    if (st.isFile() || st.isSymbolicLink()) return undefined
    return st.isDirectory() ? 'a directory' : 'not a regular file'
  } catch (e) {
    rethrowUnless(isAbsent(e), e)
    return undefined
  }
}

/** Throws a clear error, before anything is written, when pointers cannot be written to the index at `path`. */
export async function checkIndexWritable(path: string, indexRel: string): Promise<void> {
  const what = await indexNotAFile(path)
  if (what)
    throw new MemdirError(
      'INVALID_PATH',
      `${indexRel} is ${what}, not a file: no pointer can be written there, and agents load no index. Move it out of the memory dir; the next save writes a new ${indexRel}.`,
    )
}
