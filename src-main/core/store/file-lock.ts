import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { errnoOf, isAbsent, MemdirError, rethrowUnless } from '../../../src-shared/errors.js'
import { isPidAlive } from './pid-alive.js'
import { siblingPath } from './sibling-name.js'

/**
 * One writer at a time for a file that several writers change by reading it first (MEMORY.md,
 * a memory saved against the hash it was loaded with). Within a process the callers queue; across
 * Memdir's processes (the app, each agent's MCP server, a hook's extraction) a lock file beside it,
 * `.<name>.lock`, holds the holder's pid. Without it, two writers both read the old index and the
 * second rename dropped the first one's pointer.
 */

export interface LockTimes {
  /** A holder that has not let go by then has died or hung (or its pid is another program's now): its lock is taken over. */
  staleMs: number
  /** How long a writer waits before it says the file is busy: longer than staleMs, so only a lock that keeps coming back is. */
  waitMs: number
}
const TIMES: LockTimes = { staleMs: 10_000, waitMs: 15_000 }

const queues = new Map<string, Promise<void>>()
let seq = 0

export const lockPathOf = (path: string) => siblingPath(path, '.lock')

const pidIn = (text: string) => {
  const pid = Number(text.split(' ')[0])
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

/** The pid a lock file of this module's at `path` names (undefined: not one, or unreadable). */
export async function lockHolder(path: string): Promise<number | undefined> {
  if (!/^\..+\.lock$/.test(basename(path))) return undefined
  const text = await readFile(path, 'utf8').catch(() => '')
  return /^\d+ [0-9a-z]+\.[0-9a-z]+$/.test(text) ? pidIn(text) : undefined
}

/**
 * The lock's text when its holder is gone: its pid is not running, or is this process's (whose own
 * writers of the file queue before they lock it: a lock with its pid is an earlier process's that
 * had the same pid, as a container's first process always has), or it is older than `staleMs`.
 */
async function staleLock(lock: string, staleMs: number): Promise<string | undefined> {
  const [text, st] = await Promise.all([
    readFile(lock, 'utf8').catch(() => undefined),
    stat(lock).catch(() => undefined),
  ])
  if (text === undefined || !st) return undefined
  const pid = pidIn(text)
  const gone = pid !== undefined && (pid === process.pid || !isPidAlive(pid))
  return gone || Date.now() - st.mtimeMs > staleMs ? text : undefined
}

/** Removes the lock file if it still holds `text` (a lock taken over meanwhile is its new holder's). */
async function unlinkIfHolding(lock: string, text: string): Promise<void> {
  if ((await readFile(lock, 'utf8').catch(() => undefined)) === text) await unlink(lock).catch(() => {})
}

async function acquire(path: string, times: LockTimes): Promise<() => Promise<void>> {
  const lock = lockPathOf(path)
  const mine = `${process.pid} ${Date.now().toString(36)}.${(++seq).toString(36)}`
  // Only our own lock: one taken over from us as stale belongs to its new holder.
  const release = () => unlinkIfHolding(lock, mine)
  const deadline = Date.now() + times.waitMs
  for (let wait = 2; ; wait = Math.min(2 * wait, 50)) {
    try {
      const fh = await open(lock, 'wx', 0o600)
      try {
        await fh.writeFile(mine)
      } finally {
        await fh.close()
      }
      return release
    } catch (e) {
      const code = errnoOf(e)
      if (isAbsent(e)) {
        // The file's dir is not there yet (a first team/MEMORY.md): made here, as the write would.
        await mkdir(dirname(lock), { recursive: true })
        continue
      }
      // A dir Memdir cannot write: the write itself fails next, with its own error.
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return async () => {}
      rethrowUnless(code === 'EEXIST', e)
    }
    const stale = await staleLock(lock, times.staleMs)
    if (stale !== undefined) {
      await unlinkIfHolding(lock, stale)
      continue
    }
    if (Date.now() > deadline) {
      const holder = pidIn(await readFile(lock, 'utf8').catch(() => ''))
      throw new MemdirError(
        'BUSY',
        `${basename(path)} is being written by another process${holder ? ` (pid ${holder})` : ''}: nothing was changed, try again`,
        { path },
      )
    }
    await new Promise((r) => setTimeout(r, wait))
  }
}

/** Runs `fn` as the only Memdir writer of `path`: after this process's earlier callers, under the lock file. */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  times: LockTimes = TIMES,
): Promise<T> {
  const key = resolve(path)
  const before = queues.get(key) ?? Promise.resolve()
  let done!: () => void
  const mine = new Promise<void>((r) => (done = r))
  const turn = before.then(() => mine)
  queues.set(key, turn)
  await before
  try {
    const release = await acquire(key, times)
    try {
      return await fn()
    } finally {
      await release()
    }
  } finally {
    done()
    if (queues.get(key) === turn) queues.delete(key)
  }
}
