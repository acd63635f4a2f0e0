import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'
import { isMissing, MemdirError, messageOf } from '../../../src-shared/errors.js'
import { writeFileAtomic } from '../store/atomic-write.js'

/**
 * The checksum of each team key as of the last sync that agreed with the server (pull or push),
 * kept in Memdir's data dir and shared by every process that syncs this team dir with one server
 * and repo. It tells a local edit waiting to be pushed (local changed, server did not) from a
 * conflict (both changed), and a key the server deleted from one it never had.
 */
export class SyncBase {
  constructor(
    readonly path: string,
    /** Where an older Memdir kept the base of this team dir and repo (read until the first save). */
    private readonly legacyPath?: string,
  ) {}

  /** The base; none yet is an empty one. A base that cannot be read is an error, never "never synced". */
  async load(): Promise<Map<string, string>> {
    for (const path of [this.path, this.legacyPath]) {
      if (!path) continue
      let text: string
      try {
        text = await readFile(path, 'utf8')
      } catch (e) {
        if (isMissing(e)) continue
        throw new MemdirError('INTERNAL', `cannot read the team sync state ${path}: ${messageOf(e)}`)
      }
      try {
        const v = JSON.parse(text) as { keys?: Record<string, unknown> }
        return new Map(
          Object.entries(v.keys ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
        )
      } catch (e) {
        throw new MemdirError(
          'INTERNAL',
          `the team sync state ${path} is corrupt (${messageOf(e)}): delete it and sync again; local edits are then kept as conflicts in history`,
        )
      }
    }
    return new Map()
  }

  async save(keys: ReadonlyMap<string, string>): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true })
    const sorted = Object.fromEntries([...keys].sort(([a], [b]) => (a < b ? -1 : 1)))
    await writeFileAtomic(this.path, JSON.stringify({ keys: sorted }, null, 1) + '\n')
  }

  /** One sync at a time across processes (the app, `memdir sync`, a hook). */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true })
    const release = await lockfile.lock(dirname(this.path), {
      lockfilePath: `${this.path}.lock`,
      realpath: false,
      stale: 60_000,
      retries: { retries: 600, minTimeout: 50, maxTimeout: 500 },
    })
    try {
      return await fn()
    } finally {
      await release()
    }
  }
}
