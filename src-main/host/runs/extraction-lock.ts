import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import lockfile from 'proper-lockfile'

/**
 * One extraction at a time per memory dir, across processes (the app, `memdir watch`, runs a hook
 * started): waits up to `waitMs` for the one running. A holder that died leaves a stale lock,
 * taken over after 30 s (a live holder refreshes it).
 */
export function extractionLock(extractionDir: string, waitMs = 10 * 60_000) {
  return async (run: () => Promise<void>): Promise<void> => {
    await mkdir(extractionDir, { recursive: true })
    const release = await lockfile.lock(join(extractionDir, 'run'), {
      realpath: false,
      stale: 30_000,
      retries: { retries: Math.ceil(waitMs / 1000), minTimeout: 1000, maxTimeout: 1000, factor: 1 },
    })
    try {
      await run()
    } finally {
      await release()
    }
  }
}
