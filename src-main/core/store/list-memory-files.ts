import { isFsError, rethrowUnless } from '../../../src-shared/errors.js'
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isMemoryFileName } from './memory-header.js'

/**
 * Every memory file under the dir, relative, with `/`. A walk on the entry types readdir already
 * returns: Node 20's `readdir({ recursive: true })` stats every entry to find the subdirectories,
 * which costs as much as reading the file. Only symlinks are stat'ed (followed, like recursive
 * readdir does, but each real directory is walked once, so a link cycle ends).
 */
export function listMemoryFilesSync(
  memoryDir: string,
  /** Called with each dir before it is read (see dir-listing.ts). */
  onDir?: (abs: string, rel: string) => void,
): string[] {
  const out: string[] = []
  let seen: Set<string> | undefined
  const walk = (abs: string, rel: string) => {
    onDir?.(abs, rel)
    let entries: Dirent[]
    try {
      entries = readdirSync(abs, { withFileTypes: true })
    } catch (e) {
      rethrowUnless(isFsError(e), e)
      return // missing or unreadable: nothing to list here, the rest still is
    }
    for (const d of entries) {
      const relPath = rel + d.name
      let isDir = d.isDirectory()
      // Only regular files are memories: a FIFO, socket or device named `x.md` would hang or flood a reader.
      let isFile = d.isFile()
      if (d.isSymbolicLink()) {
        seen ??= new Set([tryRealDir(memoryDir) ?? memoryDir])
        const target = tryStat(join(abs, d.name))
        isFile = target?.isFile() ?? false
        const real = target?.isDirectory() ? tryRealpath(join(abs, d.name)) : undefined
        isDir = real !== undefined && !seen.has(real)
        if (real) seen.add(real)
      }
      if (isFile && isMemoryFileName(relPath)) out.push(relPath)
      if (isDir) walk(join(abs, d.name), relPath + '/')
    }
  }
  walk(memoryDir, '')
  return out
}

/** `read()`, or undefined when the file system refuses it (missing, unreadable, a loop). */
function orUndefined<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return undefined
  }
}

const tryStat = (path: string) => orUndefined(() => statSync(path))
const tryRealpath = (path: string) => orUndefined(() => realpathSync(path))
const tryRealDir = (path: string) => (tryStat(path)?.isDirectory() ? tryRealpath(path) : undefined)
