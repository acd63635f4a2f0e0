import * as fs from 'node:fs'
import type * as fsp from 'node:fs/promises'

/**
 * `node:fs/promises` for the offline prompt hook's one-shot process, over the blocking calls
 * (scripts/build-hook-prompt.mjs substitutes it in the hook's two files only). The hook has nothing to
 * do while a file operation runs, so each one waiting on the thread pool and a later turn of the
 * event loop is only delay; and loading the real module (with the readline modules it loads) is
 * ~4 ms of every prompt. Same calls, same results, same errors (as rejections). Only what the hook's
 * code imports is here: anything else fails the build, never a prompt.
 */
const settled =
  <A extends unknown[], R>(call: (...args: A) => R) =>
  (...args: A): Promise<R> => {
    try {
      return Promise.resolve(call(...args))
    } catch (e) {
      return Promise.reject(e as Error)
    }
  }

export const appendFile = settled(fs.appendFileSync)
export const chmod = settled(fs.chmodSync)
export const link = settled(fs.linkSync)
export const mkdir = settled(fs.mkdirSync) as (
  path: fs.PathLike,
  options?: fs.MakeDirectoryOptions | fs.Mode,
) => Promise<string | undefined>
export const readFile = settled(fs.readFileSync) as {
  (path: fs.PathOrFileDescriptor, options: BufferEncoding | { encoding: BufferEncoding }): Promise<string>
  (path: fs.PathOrFileDescriptor): Promise<Buffer>
}
export const readdir = settled(fs.readdirSync) as unknown as typeof fsp.readdir
export const realpath = settled(fs.realpathSync) as unknown as typeof fsp.realpath
export const rename = settled(fs.renameSync)
export const stat = settled(fs.statSync) as unknown as typeof fsp.stat
export const unlink = settled(fs.unlinkSync)
export const utimes = settled(fs.utimesSync)
export const writeFile = settled(fs.writeFileSync)

/** The FileHandle methods the hook uses, over its descriptor. */
class BlockingFileHandle {
  constructor(readonly fd: number) {}
  writeFile = settled((data: string | Uint8Array) => fs.writeFileSync(this.fd, data))
  sync = settled(() => fs.fsyncSync(this.fd))
  chmod = settled((mode: fs.Mode) => fs.fchmodSync(this.fd, mode))
  stat = settled(() => fs.fstatSync(this.fd))
  read = settled((buffer: Uint8Array, offset: number, length: number, position: number | null) => ({
    bytesRead: fs.readSync(this.fd, buffer, offset, length, position),
    buffer,
  }))
  close = settled(() => fs.closeSync(this.fd))
}

export const open = settled(
  (path: fs.PathLike, flags: fs.OpenMode = 'r', mode?: fs.Mode) =>
    new BlockingFileHandle(fs.openSync(path, flags, mode)),
)
