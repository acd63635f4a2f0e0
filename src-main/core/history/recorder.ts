import { orIfMissing } from '../../../src-shared/errors.js'
import { readdir } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { readIfExists } from '../store/atomic-write.js'
import type { HistoryAuthor, HistoryEntry, HistoryStore } from './history-store.js'

export async function allMarkdown(memoryDir: string): Promise<string[]> {
  const names = await orIfMissing(readdir(memoryDir, { recursive: true }), [] as string[])
  return names.filter((n) => n.endsWith('.md')).map((n) => n.split(sep).join('/'))
}

/**
 * Compares files on disk with what history last saw and records each difference, attributed
 * to `author`. Without `paths`, the whole dir is compared (first open: baseline entries).
 */
const READ_SLICE = 64

export async function reconcileHistory(
  store: HistoryStore,
  memoryDir: string,
  author: HistoryAuthor,
  opts: { paths?: Iterable<string>; runId?: string } = {},
): Promise<HistoryEntry[]> {
  await store.load()
  const known = new Set((await store.list()).map((e) => e.path))
  const paths = opts.paths
    ? [...new Set(opts.paths)]
    : [...new Set([...(await allMarkdown(memoryDir)), ...known])]
  const markdown = paths.filter((p) => p.endsWith('.md')).sort()
  // Read in slices: all 10,000 at once would hold as many file handles open.
  const observed: { path: string; content: string | null }[] = []
  for (let i = 0; i < markdown.length; i += READ_SLICE)
    observed.push(
      ...(await Promise.all(
        markdown
          .slice(i, i + READ_SLICE)
          .map(async (path) => ({ path, content: await readIfExists(join(memoryDir, path)) })),
      )),
    )
  return store.recordObservedAll(observed, author, {
    runId: opts.runId,
    firstSeen: opts.paths ? 'create' : 'baseline',
    reread: (path) => readIfExists(join(memoryDir, path)),
  })
}
