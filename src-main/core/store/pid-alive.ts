import { errnoOf } from '../../../src-shared/errors.js'

/** Whether a process with this pid runs (one of another user's counts; 0 or less is no process). */
export const isPidAlive = (pid: number): boolean => {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return errnoOf(e) === 'EPERM'
  }
}
