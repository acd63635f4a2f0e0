import { MemdirError } from '../../../src-shared/errors.js'
import type {
  HistoryDiff,
  HistoryItem,
  HistoryPage,
  ProposalView,
  UndoOutcome,
} from '../../../src-shared/types.js'
import type { HistoryStore } from '../../core/history/history-store.js'
import { diffLines } from '../../core/history/line-diff.js'
import { ENTRYPOINT_NAME } from '../../core/paths/auto-mem-path.js'
import { parseMemoryHeaderFields } from '../../core/store/frontmatter.js'
import { restoreVersion, undoRun } from '../../core/history/restore.js'
import type { ProposalStore } from '../../core/review/proposals.js'
import type { MemoryIndex } from '../../core/store/memory-index.js'
import { newSecretFindings } from '../../core/secrets/secret-guard.js'
import type { ChangeRecorder } from './change-recorder.js'

export interface HistoryReviewDeps {
  memoryDir: string
  history: HistoryStore
  proposals: ProposalStore
  index: MemoryIndex
  recorder: ChangeRecorder
  onReviewChanged: () => void
}

/** The history timeline (diffs, restore, undo a run) and the review inbox of one workspace. */
export class HistoryReview {
  constructor(private readonly deps: HistoryReviewDeps) {}

  private readonly names = new Map<string, string | undefined>()

  /** The memory's name in a version (cached per blob: versions never change). */
  private async nameIn(hash: string | null): Promise<string | undefined> {
    if (!hash) return undefined
    if (!this.names.has(hash)) {
      const text = await this.deps.history.blob(hash).catch(() => '')
      this.names.set(hash, parseMemoryHeaderFields(text).name)
    }
    return this.names.get(hash)
  }

  /**
   * Newest first; each memory's change carries its name, and the MEMORY.md pointer update made
   * with it (same writer, same run or within two seconds) is folded into it instead of listed apart.
   */
  async list(path?: string, limit = 1000): Promise<HistoryPage> {
    await this.deps.recorder.caughtUp()
    const all = await this.deps.history.list(path ? { path } : {})
    const entries = all.slice(-limit).reverse()
    const isIndex = (p: string) => p === ENTRYPOINT_NAME || p.endsWith(`/${ENTRYPOINT_NAME}`)
    const indexEntries = entries.filter((o) => isIndex(o.path))
    const folded = new Set<number>()
    const items: HistoryItem[] = []
    for (const e of entries) {
      const item: HistoryItem = {
        id: e.id,
        at: e.at,
        path: e.path,
        author: e.author,
        change: e.change,
        ...(e.runId ? { runId: e.runId } : {}),
        ...(e.restoredFrom !== undefined ? { restoredFrom: e.restoredFrom } : {}),
        ...(e.client ? { client: e.client } : {}),
      }
      if (!isIndex(e.path)) {
        item.name = await this.nameIn(e.after ?? e.before)
        const pointer = path
          ? undefined
          : indexEntries.find(
              (o) =>
                !folded.has(o.id) &&
                o.author === e.author &&
                (e.runId ? o.runId === e.runId : Math.abs(o.at - e.at) < 2000),
            )
        if (pointer) {
          folded.add(pointer.id)
          item.indexEntry = pointer.id
        }
      }
      items.push(item)
    }
    return { items: items.filter((i) => !folded.has(i.id)), more: all.length > limit }
  }

  async diff(id: number): Promise<HistoryDiff> {
    const { history } = this.deps
    const e = await history.get(id)
    if (!e) throw new MemdirError('NOT_FOUND', `No history entry ${id}.`)
    const before = e.before === null ? null : await history.blob(e.before)
    const after = e.after === null ? null : await history.blob(e.after)
    const { before: _b, after: _a, ...entry } = e
    return { entry, before, after, lines: diffLines(before ?? '', after ?? '') }
  }

  async restore(path: string, id: number): Promise<void> {
    const record = this.deps.recorder.writer({
      author: 'user',
      runId: `restore-${id}`,
      change: 'restore',
      restoredFrom: id,
    })
    await restoreVersion(this.deps.history, this.deps.memoryDir, path, id, { record })
    await this.deps.index.update([path])
  }

  async undoRun(runId: string): Promise<UndoOutcome> {
    const record = this.deps.recorder.writer({ author: 'user', runId: `undo-${runId}`, change: 'restore' })
    const outcome = await undoRun(this.deps.history, this.deps.memoryDir, runId, { record })
    await this.deps.index.update(outcome.undone)
    return outcome
  }

  /** The inbox: each proposal's diffs, and the secrets a file would add flagged (approving it needs an edit). */
  async proposals(): Promise<ProposalView[]> {
    return Promise.all(
      (await this.deps.proposals.list()).map(async (p) => ({
        ...p,
        files: await Promise.all(
          p.files.map(async (f) => {
            const secrets = f.after === null ? [] : await newSecretFindings(f.before, f.after)
            return {
              ...f,
              lines: diffLines(f.before ?? '', f.after ?? ''),
              ...(secrets.length ? { secrets } : {}),
            }
          }),
        ),
      })),
    )
  }

  async approve(id: string, edits?: Record<string, string | null>): Promise<void> {
    const { proposals, recorder } = this.deps
    const p = await proposals.get(id)
    const record = recorder.writer({
      // A merge health proposed is the user's once they approve it.
      author: p.author === 'health' ? 'user' : p.author,
      runId: `${p.author}-review-${id}`,
      ...(p.client ? { client: p.client } : {}),
    })
    const applied = await proposals.approve(id, this.deps.memoryDir, edits, record)
    await this.deps.index.update(applied.map((f) => f.path))
    this.deps.onReviewChanged()
  }

  async reject(id: string): Promise<void> {
    await this.deps.proposals.reject(id)
    this.deps.onReviewChanged()
  }
}
