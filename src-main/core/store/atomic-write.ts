import { nodeCrypto } from './lazy-crypto.js'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { link, mkdir, open, rename, stat, unlink } from 'node:fs/promises'
import { READ_NOW, readTextFile } from './regular-file.js'
import { encodeLike, isUtf16Le } from './text-encoding.js'
import { lockHolder, withFileLock } from './file-lock.js'
import { siblingPath } from './sibling-name.js'
import { isPidAlive } from './pid-alive.js'
import { basename, dirname, join } from 'node:path'
import {
  errnoOf,
  ignoreFsError,
  isAbsent,
  MemdirError,
  messageOf,
  orIfMissing,
  rethrowUnless,
} from '../../../src-shared/errors.js'

export function sha256Hex(content: string | Buffer): string {
  return nodeCrypto().createHash('sha256').update(content).digest('hex')
}

/** Thrown when the file on disk is no longer what the caller loaded. Carries both versions. */
export class ConflictError extends MemdirError {
  constructor(
    readonly path: string,
    /** Content now on disk; null when the file is gone. */
    readonly current: string | null,
    readonly attempted: string,
  ) {
    super('CONFLICT', `${basename(path)} changed on disk since it was loaded`, {
      current,
      currentHash: current === null ? null : sha256Hex(current),
      attempted,
    })
    this.name = 'ConflictError'
  }
}

// pid + time + sequence is unique across processes; the exclusive open ('wx') catches the rest.
let tempSeq = 0

function tempPathFor(path: string): string {
  return siblingPath(path, `.${process.pid}.${Date.now().toString(36)}${(++tempSeq).toString(36)}.tmp`)
}

async function writeTemp(
  path: string,
  data: string | Buffer,
  mode = 0o644,
  durable = true,
  exactMode?: number,
): Promise<string> {
  await mkdir(dirname(path), { recursive: true })
  const tmp = tempPathFor(path)
  const fh = await open(tmp, 'wx', mode)
  try {
    if (exactMode !== undefined) await fh.chmod(exactMode)
    await fh.writeFile(data)
    if (durable) await fh.sync()
  } catch (e) {
    await fh.close()
    await unlink(tmp).catch(ignoreFsError)
    throw e
  }
  await fh.close()
  return tmp
}

/** Whether the regular file at `path` is UTF-16LE text (text-encoding.ts); false when there is none. */
async function isUtf16File(path: string): Promise<boolean> {
  // Best effort: a file this process cannot read (write-only, locked) is written as before.
  const fh = await open(path, READ_NOW).catch(() => undefined)
  if (!fh) return false
  try {
    if (!(await fh.stat()).isFile()) return false
    const bom = Buffer.alloc(2)
    const { bytesRead } = await fh.read(bom, 0, 2, 0)
    return isUtf16Le(bom, bytesRead)
  } finally {
    await fh.close()
  }
}

/**
 * READ_ONLY when the file at `path` is there and its owner may not write it (`chmod a-w`): Memdir
 * leaves such a file as it is, as an editor asks before it overwrites one. An atomic write (a
 * rename over it) would otherwise change it whatever its mode, for the user and every agent alike.
 */
export function refuseReadOnly(path: string, mode: number | undefined): void {
  if (mode === undefined || mode & 0o200) return
  throw new MemdirError(
    'READ_ONLY',
    `${path} is read-only (mode ${(mode & 0o777).toString(8)}): Memdir leaves it as it is. Make it writable (chmod u+w) and try again, or make the change yourself.`,
  )
}

/** The permission bits of the regular file at `path`, or undefined when there is none. */
export async function existingMode(path: string): Promise<number | undefined> {
  const st = await stat(path).catch((e: unknown) => {
    rethrowUnless(isAbsent(e), e)
    return undefined
  })
  return st?.isFile() ? st.mode & 0o777 : undefined
}

/**
 * The file a write to a memory file or index at `path` changes: a symlink's target (as a plain
 * write would), so that the rename of an atomic write replaces the target and the user's link
 * stays. Callers check first that the link stays in the memory dir (contained-path.ts).
 */
export async function writeTarget(path: string): Promise<string> {
  const { lstat, realpath } = await import('node:fs/promises')
  const st = await lstat(path).catch(() => undefined)
  return st?.isSymbolicLink() ? realpath(path).catch(() => path) : path
}

/** Temp file in the same dir + fsync + rename: readers see the old or the new file, never half. */
export async function writeFileAtomic(
  path: string,
  data: string | Buffer,
  /**
   * durable: false skips the fsync, for state that may be lost in a power cut (never user content).
   * refuseReadOnly: a file its owner made read-only is left as it is (refuseReadOnly), for memory files.
   */
  opts: { mode?: number; durable?: boolean; refuseReadOnly?: boolean } = {},
): Promise<void> {
  // A file written again keeps its permissions: a memory the user made 0600 must not become
  // readable by others because Memdir saved it (a new file gets `mode` under the umask).
  const kept = opts.mode === undefined ? await existingMode(path) : undefined
  if (opts.refuseReadOnly) refuseReadOnly(path, kept)
  // … and its encoding: a UTF-16 MEMORY.md (PowerShell's) written back as UTF-8 would be garbled.
  const encoded = typeof data === 'string' ? encodeLike(data, await isUtf16File(path)) : data
  const tmp = await writeTemp(path, encoded, opts.mode, opts.durable ?? true, kept)
  try {
    await rename(tmp, path)
  } catch (e) {
    await unlink(tmp).catch(ignoreFsError)
    throw e
  }
}

/**
 * writeFileAtomic with blocking calls and no fsync: for small state a short-lived process keeps
 * (a hook's per-session recall state), where each thread-pool round trip costs more than the write.
 */
export function writeStateFileAtomicSync(path: string, data: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = tempPathFor(path)
  try {
    writeFileSync(tmp, data, { mode, flag: 'wx' })
    renameSync(tmp, path)
  } catch (e) {
    rmSync(tmp, { force: true })
    throw e
  }
}

/** Creates `path` atomically, failing with EEXIST (never overwriting) when it already exists. */
export async function createFileAtomic(path: string, data: string | Buffer): Promise<void> {
  const tmp = await writeTemp(path, data)
  try {
    await link(tmp, path)
  } finally {
    await unlink(tmp).catch(ignoreFsError)
  }
}

export async function readIfExists(path: string): Promise<string | null> {
  try {
    // A regular file only: a FIFO or device under the name fails (EINVAL) instead of hanging or flooding.
    return await readTextFile(path)
  } catch (e) {
    if (isAbsent(e)) return null
    throw e
  }
}

/**
 * Writes only when the file's current content hashes to `expectedHash` (null: must not exist).
 * Otherwise throws ConflictError with what is on disk, so nothing is silently overwritten.
 */
export async function writeFileIfUnchanged(
  path: string,
  data: string,
  expectedHash: string | null,
): Promise<void> {
  if (expectedHash === null) {
    try {
      await createFileAtomic(path, data)
      return
    } catch (e) {
      if (errnoOf(e) === 'EEXIST') throw new ConflictError(path, await readIfExists(path), data)
      throw e
    }
  }
  await withFileLock(path, () => replaceFileIfUnchanged(path, data, expectedHash))
}

/**
 * writeFileIfUnchanged's check and write of an existing file, for a caller that holds the file's
 * lock (withFileLock) over its own read as well.
 */
export async function replaceFileIfUnchanged(
  path: string,
  data: string,
  expectedHash: string,
): Promise<void> {
  const current = await readIfExists(path)
  if (current === null || sha256Hex(current) !== expectedHash) throw new ConflictError(path, current, data)
  await writeFileAtomic(await writeTarget(path), data, { refuseReadOnly: true })
}

const TEMP_FILE = /^\.(.+)\.(\d+)\.[0-9a-z]+\.tmp$/

/**
 * Removes the temp files of atomic writes that never finished (the writing process died between
 * writing the temp file and renaming it), and the write locks such a process left: only those of
 * processes that are gone.
 */
export async function removeStaleTempFiles(dir: string): Promise<string[]> {
  const { walkFiles } = await import('./walk-files.js')
  const names = await orIfMissing(walkFiles(dir), [] as string[])
  const removed: string[] = []
  for (const rel of names) {
    const m = TEMP_FILE.exec(basename(rel))
    const pid = m ? Number(m[2]) : await lockHolder(join(dir, rel))
    if (pid === undefined || pid === process.pid || isPidAlive(pid)) continue
    await unlink(join(dir, rel)).catch(ignoreFsError)
    removed.push(rel)
  }
  return removed
}

/**
 * Rewrites a file someone else owns and may have arranged (Claude Code's settings): through a
 * symlink to its target (the link stays), keeping the target's mode and owner, atomically, and
 * only if its content still hashes to `expectedHash` (null: it must not exist). A file that is
 * read-only for its owner is refused with a clear error, never made writable.
 */
export async function writeFileInPlace(
  path: string,
  data: string,
  expectedHash: string | null,
): Promise<void> {
  const { lstat, stat, realpath, chown } = await import('node:fs/promises')
  const link = await lstat(path).catch((e: unknown) => {
    if (errnoOf(e) === 'ENOENT') return undefined
    throw e
  })
  if (!link) return writeFileIfUnchanged(path, data, expectedHash)
  const target = link.isSymbolicLink()
    ? await realpath(path).catch((e: unknown) => {
        throw new MemdirError(
          'NOT_FOUND',
          `${path} is a symlink to a file that does not exist (${messageOf(e)})`,
        )
      })
    : path
  const st = await stat(target)
  refuseReadOnly(target, st.mode)
  const current = await readIfExists(target)
  if (current === null || sha256Hex(current) !== expectedHash) throw new ConflictError(path, current, data)
  const encoded = encodeLike(data, await isUtf16File(target))
  if (st.nlink > 1) return rewriteHardLinked(target, encoded)
  const tmp = await writeTemp(target, encoded, st.mode & 0o7777)
  try {
    const me = process.getuid?.()
    if (me !== undefined && (st.uid !== me || st.gid !== process.getgid?.()))
      await chown(tmp, st.uid, st.gid).catch((e: unknown) => {
        throw new MemdirError(
          'READ_ONLY',
          `cannot keep the owner of ${target} (${messageOf(e)}): not changed`,
        )
      })
    // writeTemp's mode is filtered by the umask: set the exact one.
    await (await import('node:fs/promises')).chmod(tmp, st.mode & 0o7777)
    await rename(tmp, target)
  } catch (e) {
    await unlink(tmp).catch(ignoreFsError)
    throw e
  }
}

/**
 * A file with other hard links (a dotfiles checkout linking its copy into place) is written in its
 * own inode: a rename would leave every other name with the old text. Not atomic, so the caller
 * keeps a backup (`hooks install` does).
 */
async function rewriteHardLinked(target: string, data: string | Buffer): Promise<void> {
  const fh = await open(target, 'r+')
  try {
    await fh.truncate(0)
    await fh.writeFile(data)
    await fh.sync()
  } finally {
    await fh.close()
  }
}
