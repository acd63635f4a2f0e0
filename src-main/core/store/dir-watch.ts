import { existsSync } from 'node:fs'
import { watch, type ChokidarOptions, type FSWatcher } from 'chokidar'

export interface DirWatch {
  close(): Promise<void>
}

/**
 * chokidar on `dir`, also when `dir` does not exist yet: a watcher on a missing path never sees it
 * appear, and creating it just to watch it would leave an empty folder (a memory dir the user never
 * wrote to, under Claude Code's projects dir). A missing dir is looked for every `pollMs`; once it
 * exists its watcher starts with `late = true`, reporting the files already in it as added.
 */
export async function watchDir(
  dir: string,
  options: ChokidarOptions,
  attach: (watcher: FSWatcher, late: boolean) => void,
  pollMs = 1000,
): Promise<DirWatch> {
  let watcher: FSWatcher | undefined
  let timer: NodeJS.Timeout | undefined
  let closed = false
  const start = async (late: boolean) => {
    const w = watch(dir, late ? { ...options, ignoreInitial: false } : options)
    watcher = w
    attach(w, late)
    await new Promise<void>((r) => w.once('ready', () => r()))
  }
  if (existsSync(dir)) await start(false)
  else {
    const poll = () => {
      if (closed) return
      if (existsSync(dir)) void start(true)
      else timer = setTimeout(poll, pollMs)
    }
    timer = setTimeout(poll, pollMs)
  }
  return {
    async close() {
      closed = true
      clearTimeout(timer)
      await watcher?.close()
    },
  }
}
