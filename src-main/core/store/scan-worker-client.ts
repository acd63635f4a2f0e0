import { messageOf } from '../../../src-shared/errors.js'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as WorkerThreads from 'node:worker_threads'
import type { Worker } from 'node:worker_threads'
import { runScanJob, type ScanJob, type ScanJobResult } from './scan-sync.js'

interface Pending {
  job: ScanJob
  resolve: (value: unknown) => void
  reject: (error: Error) => void
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string }

/**
 * Starts the worker from the bundled `scan-worker.js` next to (or above) the chunk that holds
 * this code in out/main; running from TypeScript (tests, benchmarks), from the source via tsx.
 */
function startWorker(): Worker {
  // Loaded when a thread starts: a CLI command or hook scans on its own thread and never needs it.
  const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads
  const here = import.meta.url
  if (here.endsWith('.ts')) return new Worker(new URL('./scan-worker.dev.mjs', here))
  let dir = dirname(fileURLToPath(here))
  for (let i = 0; i < 3; i++, dir = dirname(dir)) {
    const p = join(dir, 'scan-worker.js')
    if (existsSync(p)) return new Worker(pathToFileURL(p))
  }
  throw new Error('scan-worker.js not found beside the bundle')
}

const inThread = (job: ScanJob) => Promise.resolve().then(() => runScanJob(job))

/**
 * One long-lived worker thread for blocking file reads. It holds the process open only while a
 * job is outstanding. If it cannot start at all, jobs run on the calling thread instead (and say
 * so once): a broken install still scans, just without the thread.
 */
export class ScanWorker {
  constructor(private readonly start: () => Worker = startWorker) {}

  private worker?: Worker
  private answered = false
  private unavailable = false
  private nextId = 1
  private readonly pending = new Map<number, Pending>()

  run<J extends ScanJob>(job: J): Promise<ScanJobResult<J>> {
    const worker = this.ensure()
    if (!worker) return inThread(job) as Promise<ScanJobResult<J>>
    const id = this.nextId++
    return new Promise<ScanJobResult<J>>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref()
      this.pending.set(id, { job, resolve: resolve as (v: unknown) => void, reject })
      worker.postMessage({ id, job })
    })
  }

  private ensure(): Worker | undefined {
    if (this.worker || this.unavailable) return this.worker
    try {
      const worker = this.start()
      worker.unref()
      worker.on('message', (reply: Reply) => this.settle(reply))
      worker.on('error', (e) => this.fail(worker, e))
      worker.on('exit', (code) => this.fail(worker, new Error(`scan worker exited (code ${code})`)))
      this.worker = worker
    } catch (e) {
      this.giveUp(e)
    }
    return this.worker
  }

  private giveUp(error: unknown): void {
    this.unavailable = true
    process.emitWarning(`memdir: scanning on the main thread (${messageOf(error)})`)
  }

  private settle(reply: Reply): void {
    this.answered = true
    const p = this.pending.get(reply.id)
    if (!p) return
    this.pending.delete(reply.id)
    if (this.pending.size === 0) this.worker?.unref()
    if (reply.ok) p.resolve(reply.value)
    else p.reject(new Error(reply.error))
  }

  /**
   * A worker that dies after working fails what it held, and the next job starts a fresh one.
   * One that never answered (it could not load) is not retried: its jobs run here instead.
   */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return
    this.worker = undefined
    const held = [...this.pending.values()]
    this.pending.clear()
    if (!this.answered) this.giveUp(error)
    for (const p of held) {
      if (this.unavailable) inThread(p.job).then(p.resolve, p.reject)
      else p.reject(error)
    }
  }
}

/**
 * Where scan jobs run, chosen at each entry point and passed down: `inline` on the calling thread
 * (a CLI command or a hook, which nothing else waits on and for which a thread costs more to start
 * than it saves, even at 20,000 files — bench/hooks), or `threaded` (the app and the long-running
 * commands, whose main thread must not block: up to two worker threads, each reading a shard).
 */
export interface Scanner {
  readonly kind: 'inline' | 'threaded'
  run<J extends ScanJob>(job: J): Promise<ScanJobResult<J>>
  /** One job per thread (each its own shard), results in shard order. */
  runSharded<J extends ScanJob>(jobForShard: (index: number, count: number) => J): Promise<ScanJobResult<J>[]>
}

export const inlineScanner: Scanner = {
  kind: 'inline',
  run: <J extends ScanJob>(job: J) => inThread(job) as Promise<ScanJobResult<J>>,
  runSharded: <J extends ScanJob>(jobForShard: (index: number, count: number) => J) =>
    Promise.all([inThread(jobForShard(0, 1)) as Promise<ScanJobResult<J>>]),
}

let threaded: Scanner | undefined

/** The worker threads, started on the first job (a process that never scans never starts one). */
export function threadedScanner(): Scanner {
  if (threaded) return threaded
  // Two threads when the machine has the cores: reading is syscall-bound, and a scan splits into
  // shards by file name (scan-sync.ts), so each thread reads half the files.
  const pool = Array.from(
    { length: Math.min(2, Math.max(1, availableParallelism())) },
    () => new ScanWorker(),
  )
  let turn = 0
  threaded = {
    kind: 'threaded',
    run: (job) => (pool[turn++ % pool.length] as ScanWorker).run(job),
    runSharded: (jobForShard) => Promise.all(pool.map((w, i) => w.run(jobForShard(i, pool.length)))),
  }
  return threaded
}

/**
 * The scanner of a caller that did not choose one (a test, a benchmark, the library): threads,
 * unless `MEMDIR_SCAN_THREADS=0` says the calling thread.
 */
export function defaultScanner(env: Record<string, string | undefined> = process.env): Scanner {
  return env.MEMDIR_SCAN_THREADS === '0' ? inlineScanner : threadedScanner()
}

/** The scanner a project context's entry point chose (see ProjectContext.scan). */
export function scannerFor(ctx: {
  scan?: 'inline' | 'threaded'
  env: Record<string, string | undefined>
}): Scanner {
  if (ctx.scan === 'inline') return inlineScanner
  if (ctx.scan === 'threaded') return threadedScanner()
  return defaultScanner(ctx.env)
}
