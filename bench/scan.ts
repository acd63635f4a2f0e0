import { execFileSync } from 'node:child_process'
import {
  close,
  closeSync,
  existsSync,
  open,
  openSync,
  read,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseMemoryFile } from '../src-main/core/store/frontmatter.js'
import { MemoryIndex } from '../src-main/core/store/memory-index.js'
import { scanMemoryFiles } from '../src-main/core/store/scan.js'
import { listMemoryFilesSync } from '../src-main/core/store/list-memory-files.js'
import { benchDir, generateMemories, mapSettledBounded, ratio, table, timeIt } from './lib.js'

const openFd = promisify(open)
const closeFd = promisify(close)
const readFd = promisify(read)
const isMd = (n: string) => n.endsWith('.md') && !n.endsWith('MEMORY.md')

/** Naive: stat every file, sort by mtime, then read the newest 200 in full (64 in flight). */
async function naiveScan(dir: string) {
  const names = (await readdir(dir, { recursive: true })).filter(isMd)
  const stats = await mapSettledBounded(names, 64, async (n) => ({
    n,
    m: (await stat(join(dir, n))).mtimeMs,
  }))
  const ok = stats.filter((x): x is { n: string; m: number } => x !== undefined).sort((a, b) => b.m - a.m)
  return mapSettledBounded(ok.slice(0, 200), 64, async (s) =>
    parseMemoryFile(await readFile(join(dir, s.n), 'utf8')),
  )
}

/** The same naive algorithm with blocking calls. */
function naiveScanSync(dir: string) {
  const names = (readdirSync(dir, { recursive: true }) as string[]).filter(isMd)
  const stats = names.map((n) => ({ n, m: statSync(join(dir, n)).mtimeMs })).sort((a, b) => b.m - a.m)
  return stats.slice(0, 200).map((s) => parseMemoryFile(readFileSync(join(dir, s.n), 'utf8')))
}

/**
 * Floor: a bare loop — list the files, then read the first 4 KiB (30 lines here) of each; no
 * stat, no parsing, one thread. It lists with the scan's own directory walk (cheaper than
 * `readdir({ recursive: true })`, which stats every entry), so the floor is as low as we know how.
 */
function floorScanSync(dir: string) {
  const names = listMemoryFilesSync(dir)
  const buf = Buffer.allocUnsafe(4096)
  for (const n of names) {
    const fd = openSync(join(dir, n), 'r')
    readSync(fd, buf, 0, 4096, 0)
    closeSync(fd)
  }
}

/**
 * The like-for-like floor: the scan's own job done the plainest way on one thread — list, stat
 * every file for its mtime, sort, and read the first 4 KiB of the 200 newest. No parsing.
 */
function sameJobFloorSync(dir: string) {
  const names = listMemoryFilesSync(dir)
  const stats = names.map((n) => ({ n, m: statSync(join(dir, n)).mtimeMs })).sort((a, b) => b.m - a.m)
  const buf = Buffer.allocUnsafe(4096)
  for (const { n } of stats.slice(0, 200)) {
    const fd = openSync(join(dir, n), 'r')
    readSync(fd, buf, 0, 4096, 0)
    closeSync(fd)
  }
}

/** The floor with async calls, 64 in flight: what a main-thread reader could at best do. */
async function floorScanAsync(dir: string) {
  const names = (await readdir(dir, { recursive: true })).filter((n) => n.endsWith('.md'))
  await mapSettledBounded(names, 64, async (n) => {
    const fd = await openFd(join(dir, n), 'r')
    await readFd(fd, Buffer.allocUnsafe(4096), 0, 4096, 0)
    await closeFd(fd)
  })
}

export const scanApproaches: Record<string, (dir: string) => Promise<unknown>> = {
  scan: (dir) => scanMemoryFiles(dir),
  naive: naiveScan,
  'naive-sync': async (dir) => naiveScanSync(dir),
  floor: async (dir) => floorScanSync(dir),
  'floor-same-job': async (dir) => sameJobFloorSync(dir),
  'floor-async': floorScanAsync,
}

const FS_CALLS = /^(openat|open|read|pread64|close|fstat|newfstatat|statx|stat|lstat|getdents64)$/

/**
 * Real syscalls of one run of `approach`, counted by strace across all threads: the process runs
 * it once (warm-up, starts the scan worker) and then `times` more; the difference between
 * times=2 and times=1 is one run. Undefined when strace is not installed.
 */
function measuredFsCalls(approach: string, dir: string): number | undefined {
  if (!existsSync('/usr/bin/strace')) return undefined
  const count = (times: number) => {
    const out = join(tmpdir(), `memdir-strace-${process.pid}.txt`)
    execFileSync(
      '/usr/bin/strace',
      [
        '-f',
        '-c',
        '-o',
        out,
        process.execPath,
        '--import',
        'tsx',
        'bench/scan-child.ts',
        approach,
        dir,
        String(times),
      ],
      { stdio: 'ignore' },
    )
    let calls = 0
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const cols = line.trim().split(/\s+/)
      const name = cols[cols.length - 1] ?? ''
      if (FS_CALLS.test(name)) calls += Number(cols[3]) || 0
    }
    return calls
  }
  return count(2) - count(1)
}

export async function benchScan(sizes = [200, 2000, 20000]): Promise<void> {
  console.log(
    '\n## bench/scan — scanMemoryFiles vs a naive stat-sort-read, the like-for-like floor (list, stat all, read the 200 newest) and the bare read-every-file floor',
  )
  const dirs = sizes.map((n) => {
    const d = benchDir(`scan${n}`)
    generateMemories(d.dir, n)
    return { n, ...d }
  })
  try {
    const samples = new Map<number, Record<string, number[]>>(sizes.map((n) => [n, {}]))
    // Interleaved rounds, sizes and approaches alike, so drift on a noisy machine hits every cell.
    // The scan's code runs in worker threads, whose JIT needs some dozens of calls to reach the
    // steady state a long-lived app sees: the first round warms every cell up.
    for (let round = 0; round < 3; round++)
      for (const { n, dir } of dirs)
        for (const [name, fn] of Object.entries(scanApproaches)) {
          const runs = n >= 20000 ? 5 : 9
          const warmup = round === 0 ? (n >= 20000 ? 2 : 30) : 1
          ;(samples.get(n)![name] ??= []).push(await timeIt(() => fn(dir), runs, warmup))
        }
    const rows: Record<string, string | number>[] = []
    const calls: Record<string, string | number>[] = []
    for (const { n, dir } of dirs) {
      const ms: Record<string, number> = {}
      for (const [name, xs] of Object.entries(samples.get(n)!))
        ms[name] = xs.sort((a, b) => a - b)[1] as number
      const index = new MemoryIndex(dir)
      await index.load()
      const incremental = await timeIt(
        async () => {
          await index.update(['memory_00007.md'])
          return index.list(200)
        },
        n >= 20000 ? 5 : 9,
      )
      rows.push({
        files: n,
        'scan ms': ms.scan!.toFixed(1),
        'naive ms': ms.naive!.toFixed(1),
        'naive-sync ms': ms['naive-sync']!.toFixed(1),
        'floor ms': ms.floor!.toFixed(1),
        'floor-async ms': ms['floor-async']!.toFixed(1),
        'same-job floor ms': ms['floor-same-job']!.toFixed(1),
        'scan/same-job floor': ratio(ms.scan!, ms['floor-same-job']!),
        'scan/floor': ratio(ms.scan!, ms.floor!),
        'scan/naive': ratio(ms.scan!, ms.naive!),
        'scan/naive-sync': ratio(ms.scan!, ms['naive-sync']!),
        'incremental ms (1 changed)': incremental.toFixed(2),
      })
      const row: Record<string, string | number> = { files: n }
      for (const name of ['scan', 'floor-same-job', 'naive', 'floor'])
        row[`${name} fs syscalls`] = measuredFsCalls(name, dir) ?? 'n/a'
      calls.push(row)
    }
    table(rows)
    console.log('fs syscalls per run (strace -f, all threads; open/read/stat/close/getdents):')
    table(calls)
  } finally {
    for (const d of dirs) d.cleanup()
  }
}
