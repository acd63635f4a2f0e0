import type { ScanJob } from '../../src-main/core/store/scan-sync.js'
import { inlineScanner, type Scanner } from '../../src-main/core/store/scan-worker-client.js'

/**
 * The in-thread scanner, except that once armed, the next job of `kind` reads the files at once
 * but hands its result back only when `release()` is called: an older read finishing last.
 */
export function lateScanner(kind: ScanJob['kind']) {
  let armed = false
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  const scanner: Scanner = {
    ...inlineScanner,
    run: async (job) => {
      const result = await inlineScanner.run(job)
      if (armed && job.kind === kind) {
        armed = false
        await released
      }
      return result
    },
  }
  return { scanner, arm: () => (armed = true), release }
}
