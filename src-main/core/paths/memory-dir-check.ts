import { statSync } from 'node:fs'
import { dirname } from 'node:path'
import { errnoOf, isFsError, MemdirError, rethrowUnless } from '../../../src-shared/errors.js'

/**
 * Refuses a memory dir that a file stands in the way of: the dir itself, or a folder on its path, is
 * a file. Nothing can be read or written there (Claude Code's writes fail too), and every file call
 * would fail with the file system's ENOTDIR; this says which file, and what to do. A dir that does
 * not exist yet is fine: it is made on the first write.
 */
export function checkMemoryDirUsable(memoryDir: string): void {
  const dir = memoryDir.replace(/(.)[\\/]+$/, '$1')
  const file = fileInTheWay(dir)
  if (file === undefined) return
  throw new MemdirError(
    'INVALID_PATH',
    `${file} is a file, not a folder: no memory can be kept ${file === dir ? 'there' : `in ${dir}`} (Claude Code's neither). Move or rename that file.`,
  )
}

/** `dir`, or the folder on its path, that is a file; undefined when there is none. */
function fileInTheWay(dir: string): string | undefined {
  for (let path = dir; ; path = dirname(path)) {
    try {
      return statSync(path).isDirectory() ? undefined : path
    } catch (e) {
      rethrowUnless(isFsError(e), e)
      // Missing: the dir is made on the first write, unless a file stands higher up.
      if (errnoOf(e) !== 'ENOTDIR' && errnoOf(e) !== 'ENOENT') return undefined
      if (dirname(path) === path) return undefined
    }
  }
}
