import type { ActivityItem } from '../../src-shared/types.js'
import type { DreamEvent } from '../core/dream/auto-dream.js'
import type { ExtractionEvent } from '../core/extract/extract-memories.js'
import type { TeamSyncEvent } from '../core/team/scheduler.js'

const MAX_ITEMS = 300

/** The live feed the UI renders: extraction, dream and sync events, newest last. */
export class ActivityLog {
  private items: ActivityItem[] = []
  private nextId = 1

  constructor(private readonly onItem: (item: ActivityItem) => void) {}

  list(): ActivityItem[] {
    return [...this.items]
  }

  add(item: Omit<ActivityItem, 'id' | 'at'> & { at?: number }): ActivityItem {
    const full: ActivityItem = { id: this.nextId++, at: item.at ?? Date.now(), ...item }
    this.items.push(full)
    if (this.items.length > MAX_ITEMS) this.items = this.items.slice(-MAX_ITEMS)
    this.onItem(full)
    return full
  }

  extraction(e: ExtractionEvent, memoryDirLabel: string, runId?: string): void {
    const base = { kind: 'extraction' as const }
    if (e.type === 'wrote') {
      this.add({
        ...base,
        level: 'success',
        title: `Memory updated in ${memoryDirLabel}`,
        detail: e.summary,
        files: e.paths,
        runId,
      })
    } else if (e.type === 'proposed') {
      this.add({
        ...base,
        level: 'info',
        title: 'New memories waiting for review',
        detail: `${e.paths.length} file(s) proposed: ${e.paths.join(', ')}`,
        files: [],
        proposalId: e.proposalId,
      })
    } else if (e.type === 'failed') {
      this.add({ ...base, level: 'error', title: 'Memory extraction failed', detail: e.error, files: [] })
    } else if (e.type === 'skipped' && e.reason.startsWith('needs a model')) {
      this.add({ ...base, level: 'warning', title: 'Extraction needs a model', detail: e.reason, files: [] })
    }
  }

  dream(e: DreamEvent, runId?: string): void {
    const base = { kind: 'dream' as const }
    if (e.type === 'improved') {
      this.add({
        ...base,
        level: 'success',
        title: e.summary,
        detail: e.text || undefined,
        files: e.files.map((f) => f.path),
        runId,
      })
    } else if (e.type === 'proposed') {
      this.add({
        ...base,
        level: 'info',
        title: 'A consolidation is waiting for review',
        detail: `${e.paths.length} file(s)`,
        files: [],
        proposalId: e.proposalId,
      })
    } else if (e.type === 'failed') {
      this.add({ ...base, level: 'error', title: 'Consolidation failed', detail: e.error, files: [] })
    }
  }

  sync(e: TeamSyncEvent): void {
    if (e.type === 'synced' && e.conflicts.length) {
      this.add({
        kind: 'sync',
        level: 'warning',
        title: `Team memory conflict: ${e.conflicts.length} file(s) changed here and on the server`,
        detail: "The server's version is on disk now; yours is kept in history. Restore yours to push it.",
        files: e.conflicts.map((c) => `team/${c.key}`),
        restore: e.conflicts.flatMap((c) =>
          c.localVersion ? [{ path: `team/${c.key}`, version: c.localVersion }] : [],
        ),
      })
    }
    if (e.type === 'synced' && (e.pulled.length || e.pushed.length || e.skipped.length)) {
      const parts = [`pulled ${e.pulled.length}`, `pushed ${e.pushed.length}`]
      if (e.skipped.length) parts.push(`skipped ${e.skipped.length}`)
      this.add({
        kind: 'sync',
        level: e.skipped.length ? 'warning' : 'success',
        title: `Team memory synced: ${parts.join(', ')}`,
        detail: e.skipped.map((s) => `${s.key}: ${s.reason}`).join('\n') || undefined,
        files: [...e.pulled, ...e.pushed].map((k) => `team/${k}`),
      })
    } else if (e.type === 'error') {
      this.add({
        kind: 'sync',
        level: 'error',
        title: 'Team sync failed',
        detail: e.error + (e.retryInMs ? ` — retrying in ${Math.round(e.retryInMs / 1000)} s` : ''),
        files: [],
      })
    }
  }
}
