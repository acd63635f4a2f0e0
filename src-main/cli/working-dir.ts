import { homedir } from 'node:os'
import { errnoOf, rethrowUnless } from '../../src-shared/errors.js'

/**
 * The process's working directory, or undefined when it no longer exists: a shell left in a
 * folder that was deleted (a removed worktree, a cleaned temp dir), where process.cwd() throws.
 */
export function workingDir(): string | undefined {
  try {
    return process.cwd()
  } catch (e) {
    rethrowUnless(errnoOf(e) === 'ENOENT', e)
    return undefined
  }
}

/** Where a hook stands when its own folder is gone: it takes its project from its input's `cwd`. */
export const hookWorkingDir = (): string => workingDir() ?? homedir()
