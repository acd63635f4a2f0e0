import { messageOf } from '../../../src-shared/errors.js'
import type { ActivityItem } from '../../../src-shared/types.js'
import type { DreamEvent } from '../../core/dream/auto-dream.js'
import type { ExtractionEvent } from '../../core/extract/extract-memories.js'
import type { TeamSyncEvent } from '../../core/team/scheduler.js'
import { dreamActivity, extractionActivity, syncActivity } from './activity-items.js'
import {
  ActivityTail,
  appendActivity,
  newActivityItem,
  readActivity,
  type ActivityInput,
} from './activity-store.js'

const MAX_ITEMS = 300

/** A repeat of the entry before (the same skipped file at every sync): counted, not listed again. */
function sameEntry(a: ActivityItem, b: ActivityInput): boolean {
  if (a.runId || a.proposalId || a.restore || b.runId || b.proposalId || b.restore) return false
  return (
    a.kind === b.kind &&
    a.level === b.level &&
    a.title === b.title &&
    a.detail === b.detail &&
    a.source === b.source &&
    JSON.stringify(a.files) === JSON.stringify(b.files)
  )
}

/**
 * The feed the UI renders: extraction, dream, sync, recall and agent events, newest last. It is
 * the open workspace's feed file: what the CLI, hooks and MCP server append shows up here too.
 */
export class ActivityLog {
  private items: ActivityItem[] = []
  private seen = new Set<string>()
  private file?: string
  private tail?: ActivityTail

  constructor(
    private readonly onItem: (item: ActivityItem) => void,
    private readonly onPersistError: (e: unknown) => void = (e) =>
      process.emitWarning(`memdir: the activity feed could not be saved: ${messageOf(e)}`),
  ) {}

  /** Switches to a workspace's feed file (undefined: memory only); loads its recent items. */
  async attach(file: string | undefined): Promise<void> {
    await this.tail?.close()
    this.tail = undefined
    this.file = file
    this.items = file ? await readActivity(file, MAX_ITEMS) : []
    this.seen = new Set(this.items.map((i) => i.id))
    if (!file) return
    this.tail = new ActivityTail(file, (items) => {
      for (const item of items) {
        if (!this.seen.has(item.id)) this.push(item)
        else {
          // A repeat counted by another process: the known entry with its new count.
          const i = this.items.findIndex((x) => x.id === item.id)
          if (i >= 0 && (this.items[i]!.count ?? 1) < (item.count ?? 1)) {
            this.items[i] = item
            this.onItem(item)
          }
        }
      }
    })
    await this.tail.start()
  }

  async close(): Promise<void> {
    await this.tail?.close()
  }

  list(): ActivityItem[] {
    return [...this.items]
  }

  private push(item: ActivityItem): void {
    this.seen.add(item.id)
    this.items.push(item)
    if (this.items.length > MAX_ITEMS) this.items = this.items.slice(-MAX_ITEMS)
    this.onItem(item)
  }

  add(input: ActivityInput): ActivityItem {
    const last = this.items.at(-1)
    const item =
      last && sameEntry(last, input)
        ? { ...last, at: input.at ?? Date.now(), count: (last.count ?? 1) + 1 }
        : newActivityItem(input)
    if (item.id === last?.id) {
      this.items[this.items.length - 1] = item
      this.onItem(item)
    } else this.push(item)
    if (this.file) void appendActivity(this.file, item).catch((e: unknown) => this.onPersistError(e))
    return item
  }

  extraction(e: ExtractionEvent, memoryDirLabel: string, runId?: string): void {
    const item = extractionActivity(e, memoryDirLabel, runId)
    if (item) this.add(item)
  }

  dream(e: DreamEvent, runId?: string): void {
    const item = dreamActivity(e, runId)
    if (item) this.add(item)
  }

  sync(e: TeamSyncEvent): void {
    for (const item of syncActivity(e)) this.add(item)
  }
}
