import { existsSync } from 'node:fs'
import { TreeWatcher, type TreeEvents, type TreeWatchOptions } from './tree-watcher.js'

/**
 * A file Memdir's own writes leave for a moment beside the one they write: an atomic write's
 * `.<name>.<pid>.<n>.tmp` and a writer's lock `.<name>.lock` (file-lock.ts). No watcher takes them
 * for a change of the dir.
 */
export const isWriteScratch = (path: string) => /(^|[\\/])\.[^\\/]+\.(?:tmp|lock)$/.test(path)

export interface DirWatch {
  close(): Promise<void>
}

/**
 * A tree watcher on `dir`, also when `dir` does not exist yet or is removed later: a watch on a
 * missing path never sees it appear, and creating it just to watch it would leave an empty folder
 * (a memory dir the user never wrote to, under Claude Code's projects dir). A missing dir is looked
 * for every `pollMs`; once it exists its watcher starts with `late = true`, reporting the files
 * already in it as added. `attach` is called for each watcher started.
 */
export async function watchDir(
  dir: string,
  options: TreeWatchOptions,
  attach: (watcher: TreeEvents, late: boolean) => void,
  pollMs = 1000,
): Promise<DirWatch> {
  let watcher: TreeWatcher | undefined
  let timer: NodeJS.Timeout | undefined
  let closed = false
  const start = async (late: boolean) => {
    const w = new TreeWatcher(dir, options)
    watcher = w
    attach(w, late)
    // Removed (its files were reported unlinked): followed again from when it comes back.
    w.on('gone', () => {
      if (closed || watcher !== w) return
      void w.close()
      watcher = undefined
      timer = setTimeout(poll, pollMs)
    })
    await w.start(late || !options.ignoreInitial)
  }
  const poll = () => {
    if (closed) return
    if (existsSync(dir)) void start(true)
    else timer = setTimeout(poll, pollMs)
  }
  if (existsSync(dir)) await start(false)
  else timer = setTimeout(poll, pollMs)
  return {
    async close() {
      closed = true
      clearTimeout(timer)
      await watcher?.close()
    },
  }
}
