import { parentPort } from 'node:worker_threads'
import { runScanJob, type ScanJob } from './scan-sync.js'

// Worker thread entry: runs blocking scan jobs so the main thread never waits on the disk.
parentPort?.on('message', ({ id, job }: { id: number; job: ScanJob }) => {
  try {
    const value = runScanJob(job)
    // Packed headers hand their typed arrays over rather than copying them.
    const packed = typeof value === 'object' && 'headers' in value ? value.headers : value
    const moved =
      'stamps' in packed ? [packed.lengths.buffer as ArrayBuffer, packed.stamps.buffer as ArrayBuffer] : []
    parentPort?.postMessage({ id, ok: true, value }, moved)
  } catch (e) {
    parentPort?.postMessage({ id, ok: false, error: e instanceof Error ? e.message : String(e) })
  }
})
