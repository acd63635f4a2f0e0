import { isFsError, rethrowUnless } from '../../../src-shared/errors.js'
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve, sep } from 'node:path'

function safeRealpath(p: string): string {
  try {
    return realpathSync(p)
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return resolve(p)
  }
}

/** Nearest ancestor of `start` (inclusive) holding a `.git` entry. */
export function findGitRoot(start: string): string | undefined {
  let dir = resolve(start)
  for (;;) {
    try {
      statSync(join(dir, '.git'))
      return dir
    } catch (e) {
      rethrowUnless(isFsError(e), e)
      const parent = dirname(dir)
      if (parent === dir) return undefined
      dir = parent
    }
  }
}

function readGitdirPointer(dotGitFile: string): string | undefined {
  try {
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGitFile, 'utf8'))
    return m?.[1]?.trim()
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return undefined
  }
}

/**
 * The main repository's root, also when `start` is inside a linked worktree, so that every
 * worktree of a repo shares one memory dir (a bare repository's worktrees: the bare repo dir). Submodules keep their own root. A `.git` file whose
 * worktree metadata does not point back at it is not trusted (a repo could otherwise borrow
 * another repository's memory by writing a crafted `.git` file).
 */
export function findCanonicalGitRoot(start: string): string | undefined {
  const root = findGitRoot(start)
  if (!root) return undefined
  const dotGit = join(root, '.git')
  let isDir: boolean
  try {
    isDir = statSync(dotGit).isDirectory()
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return undefined
  }
  if (isDir) return safeRealpath(root)

  const pointer = readGitdirPointer(dotGit)
  if (!pointer) return safeRealpath(root)
  const worktreeGitDir = resolve(root, pointer)
  let commonDir: string
  try {
    commonDir = resolve(worktreeGitDir, readFileSync(join(worktreeGitDir, 'commondir'), 'utf8').trim())
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return safeRealpath(root) // submodule or unusual layout: its own root
  }
  const realCommon = safeRealpath(commonDir)
  const realWorktreeGitDir = safeRealpath(worktreeGitDir)
  if (!realWorktreeGitDir.startsWith(join(realCommon, 'worktrees') + sep)) return safeRealpath(root)
  try {
    const back = readFileSync(join(worktreeGitDir, 'gitdir'), 'utf8').trim()
    if (safeRealpath(resolve(worktreeGitDir, back)) !== safeRealpath(dotGit)) return safeRealpath(root)
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return safeRealpath(root)
  }
  // A bare repository has no main work tree: its worktrees share the repository's own dir.
  if (basename(realCommon) !== '.git') return realCommon
  return dirname(realCommon)
}
