import { mkdir, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { readIfExists, writeFileAtomic } from '../store/atomic-write.js'
import { resolveContainedPath } from '../store/contained-path.js'
import type { HistoryEntry, HistoryStore } from './history-store.js'
import { recordKnownChange } from './recorder.js'

async function putBack(
  store: HistoryStore,
  memoryDir: string,
  path: string,
  hash: string | null,
  runId: string,
): Promise<void> {
  const abs = await resolveContainedPath(memoryDir, path)
  const current = await readIfExists(abs)
  const content = hash === null ? null : await store.blob(hash)
  if (current === content) return
  if (content === null) await unlink(abs).catch(() => {})
  else {
    await mkdir(dirname(abs), { recursive: true })
    await writeFileAtomic(abs, content)
  }
  await recordKnownChange(store, path, 'user', current, content, runId)
}

/** Puts a file back to the content it had right after `versionId` (a deleted file comes back too). */
export async function restoreVersion(
  store: HistoryStore,
  memoryDir: string,
  path: string,
  versionId: number,
): Promise<HistoryEntry> {
  const e = await store.get(versionId)
  if (!e || e.path !== path) throw new Error(`no version ${versionId} of ${path}`)
  const target = e.after ?? e.before // a "delete" version restores what was deleted
  await putBack(store, memoryDir, path, target, `restore-${versionId}`)
  return e
}

/** Undoes a whole run (an extraction, a dream, a pull): every file back to before its first change. */
export async function undoRun(store: HistoryStore, memoryDir: string, runId: string): Promise<string[]> {
  const entries = await store.list({ runId })
  if (!entries.length) throw new Error(`no changes recorded for run ${runId}`)
  const firstBefore = new Map<string, string | null>()
  for (const e of entries) if (!firstBefore.has(e.path)) firstBefore.set(e.path, e.before)
  for (const [path, before] of firstBefore) await putBack(store, memoryDir, path, before, `undo-${runId}`)
  return [...firstBefore.keys()]
}
