import { orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { readAppended } from '../../core/store/appended-lines.js'
import { watch, type FSWatcher } from 'node:fs'
import { appendFile, mkdir, readFile, rename, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { ActivityItem } from '../../../src-shared/types.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { getAppDataDir } from '../settings/app-data.js'

/** A workspace's activity feed lives here; every process (app, CLI, hooks, MCP) appends to it. */
export function activityFileFor(ctx: ProjectContext, memoryDir: string): string {
  return join(getAppDataDir(ctx), 'activity', `${sanitizePath(memoryDir)}.jsonl`)
}

export type ActivityInput = Omit<ActivityItem, 'id' | 'at'> & { at?: number }

const ROTATE_BYTES = 1024 * 1024

/** Ids unique across processes without loading node:crypto: time, pid, a per-process sequence. */
let idSeq = 0

export function newActivityItem(input: ActivityInput): ActivityItem {
  const at = input.at ?? Date.now()
  return { id: `${at.toString(36)}-${process.pid.toString(36)}-${(++idSeq).toString(36)}`, at, ...input }
}

/**
 * Appends one item as one line. A single small append is one write(2) with O_APPEND, so lines
 * from several processes never interleave; past 1 MiB the file is rotated to `.1`.
 */
export async function appendActivity(file: string, item: ActivityItem): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await appendFile(file, JSON.stringify(item) + '\n', { mode: 0o600 })
  const st = await stat(file)
  if (st.size > ROTATE_BYTES) await rename(file, `${file}.1`)
}

function parseLines(text: string): ActivityItem[] {
  const out: ActivityItem[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const item = JSON.parse(line) as ActivityItem
      if (typeof item.id === 'string' && typeof item.at === 'number' && typeof item.title === 'string')
        out.push({ ...item, files: Array.isArray(item.files) ? item.files : [] })
    } catch (e) {
      rethrowUnless(e instanceof SyntaxError, e)
      // a torn last line (the writer was killed): the next append starts a new line
    }
  }
  return out
}

const readOr = (path: string) => readFile(path, 'utf8').catch(() => '')

/** The newest `max` items of a feed, oldest first. */
export async function readActivity(file: string, max = 300): Promise<ActivityItem[]> {
  const lines = [...parseLines(await readOr(`${file}.1`)), ...parseLines(await readOr(file))]
  // A repeated entry is appended again under its id with a higher count: the last line wins.
  const byId = new Map<string, ActivityItem>()
  for (const item of lines) {
    byId.delete(item.id)
    byId.set(item.id, item)
  }
  return [...byId.values()].slice(-max)
}

/** Follows a feed file for lines other processes append (polling fallback when fs.watch is quiet). */
export class ActivityTail {
  private offset = 0
  private watcher?: FSWatcher
  private poll?: NodeJS.Timeout
  private reading?: Promise<void>
  private again = false

  constructor(
    readonly file: string,
    private readonly onItems: (items: ActivityItem[]) => void,
  ) {}

  async start(): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true })
    this.offset = (await orIfMissing(stat(this.file), undefined))?.size ?? 0
    const name = basename(this.file)
    this.watcher = watch(dirname(this.file), (_e, f) => {
      if (!f || f === name) this.check()
    })
    this.watcher.on('error', () => this.watcher?.close())
    this.poll = setInterval(() => this.check(), 2000)
    this.poll.unref()
  }

  private check(): void {
    if (this.reading) {
      this.again = true
      return
    }
    this.reading = this.readNew().finally(() => {
      this.reading = undefined
      if (this.again) {
        this.again = false
        this.check()
      }
    })
  }

  private async readNew(): Promise<void> {
    const got = await readAppended(this.file, { offset: this.offset })
    if (!got) return
    this.offset = got.end
    const items = parseLines(got.text)
    if (items.length) this.onItems(items)
  }

  async close(): Promise<void> {
    this.watcher?.close()
    clearInterval(this.poll)
    await this.reading
  }
}
