import { MemdirError } from '../../../src-shared/errors.js'
import type { UndoOutcome } from '../../../src-shared/types.js'
import { ConflictError, readIfExists } from '../store/atomic-write.js'
import { resolveContainedPath } from '../store/contained-path.js'
import { findIndexLine, pointerLineOf, pointsAt } from '../store/index-lines.js'
import { indexLocationFor } from '../store/memory-files.js'
import type { HistoryEntry, HistoryStore } from './history-store.js'
import { putFile, putFileOrFind, type RecordedWrite } from '../store/recorded-write.js'
import { revertChange } from './revert-change.js'
import { twinNameProblem } from '../store/twin-names.js'

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
    // A line that also held a comment lost only its loaded part: what it left is put back whole.
    const found = pointerLineOf(lines, pointer)
    if (!found) return undefined
    return { line: lines[found.at]!, left: found.left, previous: lines.slice(0, found.at).reverse() }
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
  const read = await readIfExists(abs)
  const current = read ?? ''
  const lines = current === '' ? [] : current.replace(/\n$/, '').split('\n')
  if (findIndexLine(lines, last.pointer) >= 0) return
  // After the nearest line that preceded it then and is still there; else at the top.
  const anchor = last.previous.map((l) => lines.indexOf(l)).find((i) => i >= 0) ?? -1
  const replaces = last.left !== undefined && lines[anchor + 1] === last.left
  lines.splice(anchor + 1, replaces ? 1 : 0, last.line)
  await putFile(abs, lines.join('\n') + '\n', record, read)
}

/**
 * Why a file cannot come back at `path` now: another spelling of it, or of a folder on its path, is
 * there since (`Deploy.md` where `deploy.md` was deleted), which on macOS and Windows is that file.
 */
async function comeBackProblem(memoryDir: string, path: string): Promise<string | undefined> {
  return indexLocationFor(path).indexRel === path ? undefined : twinNameProblem(memoryDir, path)
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
  const twin = current === null && content !== null ? await comeBackProblem(memoryDir, path) : undefined
  if (twin) throw new MemdirError('INVALID_NAME', twin, { name: path })
  const put = await putFileOrFind(abs, content, record, current)
  if (!put.written) {
    // Written meanwhile: the same restore asked again (a second click) is done already; anyone
    // else's text is not overwritten.
    if (put.found === content) return false
    throw new ConflictError(abs, put.found, content ?? '')
  }
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

/** Why a file changed since the run is kept, or undefined when the run's change can be taken out of it. */
function keptReason(current: string | null, after: string | null, before: string | null): string | undefined {
  if (current === after) return undefined
  if (before === null) return 'changed since the run created it'
  if (after === null) return 'written again since the run deleted it'
  if (current === null) return 'deleted since the run'
  return undefined
}

/**
 * Undoes a whole run (an extraction, a dream, a pull, a batch fix): every file it changed goes back
 * to before its first change. A file changed since then keeps what was written since, as `git
 * revert` would: the run's own lines are taken out where nothing else changed them, and a file
 * where they were changed again (or a memory the run created and someone edited since) is kept as
 * it is and reported, with its pointer in the index.
 */
export async function undoRun(
  store: HistoryStore,
  memoryDir: string,
  runId: string,
  opts: RestoreOptions = {},
): Promise<UndoOutcome> {
  const entries = await store.list({ runId })
  if (!entries.length) throw new MemdirError('NOT_FOUND', `no changes recorded for run ${runId}`)
  const record = opts.record ?? selfRecording(store, memoryDir, `undo-${runId}`)
  const firstBefore = new Map<string, string | null>()
  const lastAfter = new Map<string, string | null>()
  for (const e of entries) {
    if (!firstBefore.has(e.path)) firstBefore.set(e.path, e.before)
    lastAfter.set(e.path, e.after)
  }
  const blob = (hash: string | null | undefined) => (hash ? store.blob(hash) : null)
  const outcome: UndoOutcome = { undone: [], kept: [] }
  const cameBack: string[] = []
  const isIndex = (path: string) => indexLocationFor(path).indexRel === path
  // Memories first: an index keeps the pointers of the memories kept.
  const paths = [...firstBefore.keys()].sort((a, b) => Number(isIndex(a)) - Number(isIndex(b)))
  for (const path of paths) {
    const abs = await resolveContainedPath(memoryDir, path)
    const current = await readIfExists(abs)
    const [before, after] = [await blob(firstBefore.get(path)), await blob(lastAfter.get(path))]
    if (current === before) continue // as before the run already (undone twice, or by hand)
    const reason = keptReason(current, after, before)
    if (reason) {
      outcome.kept.push({ path, reason })
      continue
    }
    const keptPointers = outcome.kept
      .map((k) => indexLocationFor(k.path))
      .filter((l) => l.indexRel === path)
      .map((l) => l.pointer)
    const keepLine = keptPointers.length
      ? (line: string) => keptPointers.some((p) => pointsAt(line, p))
      : undefined
    const target =
      current === null || before === null || after === null
        ? before
        : revertChange(current, after, before, keepLine)
    if (target === undefined) {
      outcome.kept.push({ path, reason: 'changed since the run, where the run changed it' })
      continue
    }
    if (current === target) continue // only what must stay is left
    const twin = current === null && target !== null ? await comeBackProblem(memoryDir, path) : undefined
    if (twin) {
      outcome.kept.push({ path, reason: twin })
      continue
    }
    const put = await putFileOrFind(abs, target, record, current)
    if (!put.written) {
      // Written meanwhile: by the same undo asked again (a second click), which leaves it as it
      // was before the run, or by someone else, whose text stays.
      if (put.found !== target && put.found !== before)
        outcome.kept.push({ path, reason: 'changed while it was being undone' })
      continue
    }
    if (current === null && target !== null) cameBack.push(path)
    outcome.undone.push(path)
  }
  // Files the run deleted come back with their index lines (unless the run's own index edit is undone too).
  for (const path of cameBack) {
    if (firstBefore.has(indexLocationFor(path).indexRel)) continue
    await restorePointer(store, memoryDir, path, (await deletedAt(store, path)) ?? 0, record)
  }
  outcome.kept.sort((a, b) => a.path.localeCompare(b.path))
  return outcome
}
