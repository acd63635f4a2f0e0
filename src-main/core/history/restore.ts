import { MemdirError } from '../../../src-shared/errors.js'
import { readIfExists } from '../store/atomic-write.js'
import { resolveContainedPath } from '../store/contained-path.js'
import { findIndexLine } from '../store/index-lines.js'
import { indexLocationFor } from '../store/memory-files.js'
import type { HistoryEntry, HistoryStore } from './history-store.js'
import { putFile, type RecordedWrite } from '../store/recorded-write.js'

/**
 * A restore or undo: how its writes reach history. `record` is the writer's recorded write (the
 * app's keeps the watcher from misattributing them); without one, this records them itself.
 */
export interface RestoreOptions {
  record?: RecordedWrite
}

function selfRecording(
  store: HistoryStore,
  memoryDir: string,
  runId: string,
  restoredFrom?: number,
): RecordedWrite {
  return async (abs, write) => {
    const out = await write()
    const rel = abs.slice(memoryDir.replace(/\/?$/, '/').length)
    await store.recordChange({ path: rel, author: 'user', runId, ...out, change: 'restore', restoredFrom })
  }
}

/** The MEMORY.md change that removed `path`'s pointer line: the line, what preceded it, and when. */
async function removedPointer(store: HistoryStore, path: string) {
  const { indexRel, pointer } = indexLocationFor(path)
  const has = async (hash: string | null) => {
    if (hash === null) return undefined
    const lines = (await store.blob(hash)).split('\n')
    const at = findIndexLine(lines, pointer)
    return at < 0 ? undefined : { line: lines[at]!, previous: lines.slice(0, at).reverse() }
  }
  for (const v of (await store.list({ path: indexRel })).reverse()) {
    if (await has(v.after)) return undefined // the newest index that knows the file still has its line
    const before = await has(v.before)
    if (before) return { indexRel, pointer, ...before, removedAt: v.at }
  }
  return undefined
}

/**
 * Brings back the MEMORY.md pointer of a restored file, as it was, when the pointer went away with
 * the file (within a minute of its deletion) — not when the user removed that line on its own.
 */
async function restorePointer(
  store: HistoryStore,
  memoryDir: string,
  path: string,
  deletedAt: number,
  record: RecordedWrite,
) {
  const last = await removedPointer(store, path)
  if (!last || Math.abs(last.removedAt - deletedAt) > 60_000) return
  const abs = await resolveContainedPath(memoryDir, last.indexRel)
  const current = (await readIfExists(abs)) ?? ''
  const lines = current === '' ? [] : current.replace(/\n$/, '').split('\n')
  if (findIndexLine(lines, last.pointer) >= 0) return
  // After the nearest line that preceded it then and is still there; else at the top.
  const anchor = last.previous.map((l) => lines.indexOf(l)).find((i) => i >= 0) ?? -1
  lines.splice(anchor + 1, 0, last.line)
  await putFile(abs, lines.join('\n') + '\n', record)
}

async function putBack(
  store: HistoryStore,
  memoryDir: string,
  path: string,
  hash: string | null,
  record: RecordedWrite,
): Promise<boolean> {
  const abs = await resolveContainedPath(memoryDir, path)
  const current = await readIfExists(abs)
  const content = hash === null ? null : await store.blob(hash)
  if (current === content) return false
  await putFile(abs, content, record)
  return current === null && content !== null
}

/** The time `path` was last deleted, per history. */
async function deletedAt(store: HistoryStore, path: string): Promise<number | undefined> {
  const entries = await store.list({ path })
  return entries.reverse().find((e) => e.change === 'delete')?.at
}

/** Puts a file back to the content it had right after `versionId` (a deleted file comes back too, with its index line). */
export async function restoreVersion(
  store: HistoryStore,
  memoryDir: string,
  path: string,
  versionId: number,
  opts: RestoreOptions = {},
): Promise<HistoryEntry> {
  const e = await store.get(versionId)
  if (!e || e.path !== path) throw new MemdirError('NOT_FOUND', `no version ${versionId} of ${path}`)
  const target = e.after ?? e.before // a "delete" version restores what was deleted
  const record = opts.record ?? selfRecording(store, memoryDir, `restore-${versionId}`, versionId)
  const gone = await deletedAt(store, path)
  const cameBack = await putBack(store, memoryDir, path, target, record)
  if (cameBack && gone !== undefined) await restorePointer(store, memoryDir, path, gone, record)
  return e
}

/** Undoes a whole run (an extraction, a dream, a pull): every file back to before its first change. */
export async function undoRun(
  store: HistoryStore,
  memoryDir: string,
  runId: string,
  opts: RestoreOptions = {},
): Promise<string[]> {
  const entries = await store.list({ runId })
  if (!entries.length) throw new MemdirError('NOT_FOUND', `no changes recorded for run ${runId}`)
  const record = opts.record ?? selfRecording(store, memoryDir, `undo-${runId}`)
  const firstBefore = new Map<string, string | null>()
  for (const e of entries) if (!firstBefore.has(e.path)) firstBefore.set(e.path, e.before)
  const restored: string[] = []
  for (const [path, before] of firstBefore) {
    const gone = await deletedAt(store, path)
    if ((await putBack(store, memoryDir, path, before, record)) && gone !== undefined) restored.push(path)
  }
  // Files the run deleted come back with their index lines (unless the run's own index edit is undone too).
  for (const path of restored) {
    if (firstBefore.has(indexLocationFor(path).indexRel)) continue
    await restorePointer(store, memoryDir, path, (await deletedAt(store, path)) ?? 0, record)
  }
  return [...firstBefore.keys()]
}
