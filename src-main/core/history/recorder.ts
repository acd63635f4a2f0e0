import { readdir } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { readIfExists, sha256Hex } from '../store/atomic-write.js'
import type { HistoryAuthor, HistoryEntry, HistoryStore } from './history-store.js'

export async function allMarkdown(memoryDir: string): Promise<string[]> {
  const names = await readdir(memoryDir, { recursive: true }).catch(() => [] as string[])
  return names.filter((n) => n.endsWith('.md')).map((n) => n.split(sep).join('/'))
}

/**
 * Compares files on disk with what history last saw and records each difference, attributed
 * to `author`. Without `paths`, the whole dir is compared (first open: baseline entries).
 */
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
  const out: HistoryEntry[] = []
  for (const path of paths.sort()) {
    if (!path.endsWith('.md')) continue
    const content = await readIfExists(join(memoryDir, path))
    const last = await store.latestHash(path)
    const now = content === null ? null : sha256Hex(content)
    if (last === now || (last === undefined && now === null)) continue
    const after = content === null ? null : await store.putBlob(content)
    const change =
      last === undefined
        ? opts.paths
          ? 'create'
          : 'baseline'
        : now === null
          ? 'delete'
          : last === null
            ? 'create'
            : 'modify'
    out.push(
      await store.record({
        path,
        author: last === undefined && !opts.paths ? 'external' : author,
        change,
        runId: opts.runId,
        before: last ?? null,
        after,
      }),
    )
  }
  return out
}

/** Records a write the caller knows it made (editor saves), with its exact before/after. */
export async function recordKnownChange(
  store: HistoryStore,
  path: string,
  author: HistoryAuthor,
  before: string | null,
  after: string | null,
  runId?: string,
): Promise<HistoryEntry | undefined> {
  const last = await store.latestHash(path)
  const beforeHash = before === null ? null : await store.putBlob(before)
  if (last === undefined && beforeHash !== null) {
    await store.record({ path, author: 'external', change: 'baseline', before: null, after: beforeHash })
  }
  const afterHash = after === null ? null : await store.putBlob(after)
  if (afterHash === ((await store.latestHash(path)) ?? null)) return undefined
  const change = after === null ? 'delete' : before === null ? 'create' : 'modify'
  return store.record({ path, author, change, runId, before: beforeHash, after: afterHash })
}
