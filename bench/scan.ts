import { close, open, read } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { promisify } from 'node:util'
import { join } from 'node:path'
import { parseMemoryFile } from '../src-main/core/store/frontmatter.js'
import { MemoryIndex } from '../src-main/core/store/memory-index.js'
import { mapSettledBounded, scanMemoryFiles } from '../src-main/core/store/scan.js'
import { benchDir, generateMemories, ratio, table, timeIt } from './lib.js'

const openFd = promisify(open)
const closeFd = promisify(close)
const readFd = promisify(read)

/** Naive: stat every file, sort by mtime, then read the newest 200 in full. */
async function naiveScan(dir: string) {
  const names = (await readdir(dir, { recursive: true })).filter(
    (n) => n.endsWith('.md') && !n.endsWith('MEMORY.md'),
  )
  const stats = await mapSettledBounded(names, 64, async (n) => ({
    n,
    m: (await stat(join(dir, n))).mtimeMs,
  }))
  const ok = stats.filter((x): x is { n: string; m: number } => x !== undefined).sort((a, b) => b.m - a.m)
  return mapSettledBounded(ok.slice(0, 200), 64, async (s) =>
    parseMemoryFile(await readFile(join(dir, s.n), 'utf8')),
  )
}

/** Floor: readdir, then read the first 30 lines of every file — no parsing, no stat, no sort. */
async function floorScan(dir: string) {
  const names = (await readdir(dir, { recursive: true })).filter((n) => n.endsWith('.md'))
  // Same concurrency as scanMemoryFiles (64 in flight) and the same bare fd calls.
  await mapSettledBounded(names, 64, async (n) => {
    const fd = await openFd(join(dir, n), 'r')
    await readFd(fd, Buffer.allocUnsafe(4096), 0, 4096, 0)
    await closeFd(fd)
  })
}

export async function benchScan(sizes = [200, 2000, 20000]): Promise<void> {
  console.log('\n## bench/scan — scanMemoryFiles vs naive stat-sort-read and the readdir+read floor')
  const rows: Record<string, string | number>[] = []
  for (const n of sizes) {
    const { dir, cleanup } = benchDir(`scan${n}`)
    try {
      generateMemories(dir, n)
      const runs = n >= 20000 ? 3 : 7
      const ours = await timeIt(() => scanMemoryFiles(dir), runs)
      const naive = await timeIt(() => naiveScan(dir), runs)
      const floor = await timeIt(() => floorScan(dir), runs)
      const index = new MemoryIndex(dir)
      await index.load()
      const incremental = await timeIt(async () => {
        await index.update(['memory_00007.md'])
        return index.list(200)
      }, runs)
      const kept = Math.min(n, 200)
      rows.push({
        files: n,
        'scan ms': ours.toFixed(1),
        'naive ms': naive.toFixed(1),
        'floor ms': floor.toFixed(1),
        'scan/floor': ratio(ours, floor),
        'scan/naive': ratio(ours, naive),
        'incremental ms (1 changed)': incremental.toFixed(2),
        'incremental/scan': ratio(incremental, ours),
        // syscall-equivalents per approach (model: open+fstat+read+close per file)
        'scan fs ops': 1 + 4 * n,
        'naive fs ops': 1 + n + 4 * kept,
        'floor fs ops': 1 + 3 * n,
      })
    } finally {
      cleanup()
    }
  }
  table(rows)
}
