import { isFsError, rethrowUnless } from '../../../src-shared/errors.js'
import { statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { listMemoryFilesSync } from './list-memory-files.js'
import { isMemoryFileName } from './memory-header.js'
import { isRacilyClean } from './stamped-cache.js'

/**
 * A memory dir's listing and the mtime of every dir it walked. A file added, removed or renamed
 * changes the mtime of the dir it is in, so while every one of them keeps its mtime the listing
 * still holds and the dirs need not be read again (a file edited in place changes only its own
 * stamps, which a scan checks anyway).
 */
export interface StampedListing {
  dirs: [rel: string, mtimeMs: number][]
  files: string[]
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return undefined
  }
}

/**
 * A path a walk of the dir could have listed: relative, each segment a plain name. A listing kept
 * in the data dir is a file like any other: what it names must not lead out of the memory dir.
 */
const isWalkedPath = (rel: string) =>
  !rel.includes('\0') &&
  !isAbsolute(rel) &&
  rel.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..')

function isListing(v: unknown): v is StampedListing {
  const l = v as Partial<StampedListing> | null
  return (
    !!l &&
    Array.isArray(l.files) &&
    l.files.every((f) => typeof f === 'string' && isMemoryFileName(f) && isWalkedPath(f)) &&
    Array.isArray(l.dirs) &&
    l.dirs.length > 0 &&
    l.dirs.every(
      (d) =>
        Array.isArray(d) &&
        typeof d[0] === 'string' &&
        (d[0] === '' || (d[0].endsWith('/') && isWalkedPath(d[0].slice(0, -1)))) &&
        typeof d[1] === 'number',
    )
  )
}

/** The files of an earlier listing, when every dir it walked still has the mtime it had then. */
export function stillListed(memoryDir: string, earlier: unknown): string[] | undefined {
  if (!isListing(earlier)) return undefined
  for (const [rel, mtimeMs] of earlier.dirs) if (mtimeOf(join(memoryDir, rel)) !== mtimeMs) return undefined
  return earlier.files
}

/**
 * Lists the dir, each dir's mtime taken before it is read (an entry added meanwhile leaves a newer
 * mtime behind). `dirs` is undefined when a dir changed too recently for its mtime to tell a
 * later change apart (see isRacilyClean): such a listing is not to be reused.
 */
export function listWithDirStamps(memoryDir: string): { files: string[]; dirs?: StampedListing['dirs'] } {
  const dirs: StampedListing['dirs'] = []
  let reusable = true
  const files = listMemoryFilesSync(memoryDir, (abs, rel) => {
    const mtimeMs = mtimeOf(abs)
    if (mtimeMs === undefined || isRacilyClean(mtimeMs)) reusable = false
    else dirs.push([rel, mtimeMs])
  })
  return reusable ? { files, dirs } : { files }
}
