import { messageOf, errnoOf } from '../../../src-shared/errors.js'
import { mkdir } from 'node:fs/promises'

export type Logger = (message: string) => void

const PERMISSION_CODES = new Set(['EACCES', 'EPERM', 'EROFS'])

/**
 * Recursive mkdir; EEXIST is fine. Permission errors are logged, not thrown: the prompt still
 * builds, and a later Write surfaces the real error.
 */
export async function ensureMemoryDirExists(dir: string, log: Logger = () => {}): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true })
    return true
  } catch (e) {
    const code = errnoOf(e) ?? ''
    if (code === 'EEXIST') return true
    if (PERMISSION_CODES.has(code)) {
      log(`memory dir ${dir} could not be created (${code})`)
      return false
    }
    log(`memory dir ${dir} could not be created: ${messageOf(e)}`)
    return false
  }
}
