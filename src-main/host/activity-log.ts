import type { ActivityItem } from '../../src-shared/types.js'
import type { DreamEvent } from '../core/dream/auto-dream.js'
import type { ExtractionEvent } from '../core/extract/extract-memories.js'
import type { TeamSyncEvent } from '../core/team/scheduler.js'
import { dreamActivity, extractionActivity, syncActivity } from './activity-items.js'
import {
  ActivityTail,
  appendActivity,
  newActivityItem,
  readActivity,
  type ActivityInput,
} from './activity-store.js'

const MAX_ITEMS = 300

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
    private readonly onPersistError: (e: Error) => void = (e) =>
      process.emitWarning(`memdir: the activity feed could not be saved: ${e.message}`),
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
      for (const item of items) if (!this.seen.has(item.id)) this.push(item)
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
    const item = newActivityItem(input)
    this.push(item)
    if (this.file) void appendActivity(this.file, item).catch((e: Error) => this.onPersistError(e))
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
