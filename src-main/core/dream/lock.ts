import { readTextFile } from '../store/regular-file.js'
import { errnoOf, ignoreFsError, isMissing, orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { stat, unlink, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../store/atomic-write.js'
import { isPidAlive } from '../store/pid-alive.js'

export const LOCK_NAME = '.consolidate-lock'
export const LOCK_STALE_MS = 60 * 60 * 1000

export function lockPath(memoryDir: string): string {
  return join(memoryDir, LOCK_NAME)
}

/**
 * The lock file's mtime is the last-consolidated time (0 when never). A lock that is there but
 * cannot be read fails (the gate reports it): it must never read as "never consolidated".
 */
export async function readLastConsolidatedAt(memoryDir: string): Promise<number> {
  try {
    return (await stat(lockPath(memoryDir))).mtimeMs
  } catch (e) {
    rethrowUnless(isMissing(e), e)
    return 0
  }
}

export interface LockOptions {
  pid?: number
  now?: number
  staleMs?: number
  isAlive?: (pid: number) => boolean
}

export type LockAttempt =
  { acquired: true; priorMtimeMs: number | null } | { acquired: false; reason: string; holderPid?: number }

/**
 * Held when its mtime is under an hour old and its pid still runs; otherwise (dead pid, stale)
 * we take it: write our pid, re-read, and the last writer wins — the loser bails.
 */
export async function tryAcquireConsolidationLock(
  memoryDir: string,
  opts: LockOptions = {},
): Promise<LockAttempt> {
  const pid = opts.pid ?? process.pid
  const now = opts.now ?? Date.now()
  const alive = opts.isAlive ?? isPidAlive
  const path = lockPath(memoryDir)
  let priorMtimeMs: number | null = null
  try {
    const st = await stat(path)
    priorMtimeMs = st.mtimeMs
    const holder = Number.parseInt((await readTextFile(path)).trim(), 10)
    const fresh = now - st.mtimeMs < (opts.staleMs ?? LOCK_STALE_MS)
    if (fresh && holder !== pid && alive(holder)) {
      return {
        acquired: false,
        reason: `another consolidation is running (pid ${holder})`,
        holderPid: holder,
      }
    }
  } catch (e) {
    if (errnoOf(e) !== 'ENOENT') throw e
  }
  await writeFileAtomic(path, `${pid}\n`)
  const after = Number.parseInt((await orIfMissing(readTextFile(path), '')).trim(), 10)
  if (after !== pid) return { acquired: false, reason: `lost the lock to pid ${after}`, holderPid: after }
  return { acquired: true, priorMtimeMs }
}

/** After a failed run: put the last-consolidated time back (or remove a lock that did not exist). */
export async function rollbackConsolidationLock(
  memoryDir: string,
  priorMtimeMs: number | null,
): Promise<void> {
  const path = lockPath(memoryDir)
  if (priorMtimeMs === null) {
    await unlink(path).catch(ignoreFsError)
    return
  }
  const t = priorMtimeMs / 1000
  await utimes(path, t, t)
}
