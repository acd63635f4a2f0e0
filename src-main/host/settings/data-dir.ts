import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { MemdirError, messageOf } from '../../../src-shared/errors.js'
import { resolveHomeDir, type ProjectContext } from '../../core/paths/context.js'

/**
 * Memdir's own data (snapshots, history, app settings): never inside a memory dir. MEMDIR_DATA_DIR
 * is an absolute path, or `~/…` (a dotenv file or a service unit does not expand it). A relative one
 * is refused: it holds copies of every memory, and each process would put them in the folder it
 * runs in, such as the project a Claude Code hook runs in, where git could pick them up.
 */
export function getAppDataDir(ctx: ProjectContext): string {
  const set = ctx.env.MEMDIR_DATA_DIR
  if (!set) return join(resolveHomeDir(ctx), '.memdir')
  if (/^~[/\\]./.test(set)) return join(resolveHomeDir(ctx), set.slice(2))
  if (!isAbsolute(set))
    throw new MemdirError(
      'INVALID_PATH',
      `MEMDIR_DATA_DIR is ${JSON.stringify(set)}, a relative path: set it to an absolute one (it holds copies of every memory, which a relative path would put in whatever folder a command or hook runs in)`,
    )
  return set
}

/**
 * Makes Memdir's data dir the user's only (0700), creating it when missing. It holds copies of
 * every memory (history, dream snapshots, review proposals), recall caches and secrets: a user who
 * keeps `~/.claude` closed to others must not find their memory readable in `~/.memdir`. An existing
 * dir is narrowed only at its default place (a MEMDIR_DATA_DIR the user chose keeps its mode), and
 * only when it is the user's. Failing here is not fatal: the writes that follow say what is wrong.
 */
export function ensurePrivateDataDir(dataDir: string, isDefaultPlace: boolean): void {
  if (process.platform === 'win32') return
  try {
    // Before every prompt: one stat when the dir is there (as it nearly always is).
    const st = statSync(dataDir, { throwIfNoEntry: false })
    if (!st) mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    else if (isDefaultPlace && st.uid === process.getuid?.() && (st.mode & 0o077) !== 0)
      chmodSync(dataDir, 0o700)
  } catch {
    // see above
  }
}

/** ensurePrivateDataDir for the data dir of `ctx`. */
export function ensurePrivateAppDataDir(ctx: ProjectContext): string {
  const dir = getAppDataDir(ctx)
  ensurePrivateDataDir(dir, !ctx.env.MEMDIR_DATA_DIR)
  return dir
}

/**
 * The data dir of a Claude Code hook (`memdir hook prompt|stop`), or undefined once `say` has been
 * told why there is none (a MEMDIR_DATA_DIR refused): a hook never fails a prompt or a session,
 * so without a dir to work or log in it ends, exit 0.
 */
export function hookDataDir(
  ctx: ProjectContext,
  event: string,
  say: (text: string) => void,
): string | undefined {
  try {
    return ensurePrivateAppDataDir(ctx)
  } catch (e) {
    say(`memdir hook ${event}: ${messageOf(e)}\n`)
    return undefined
  }
}
