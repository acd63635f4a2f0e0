import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'
import { writeFileAtomic } from '../store/atomic-write.js'

/**
 * The checksum of each team key as of the last sync that agreed with the server (pull or push),
 * kept in Memdir's data dir and shared by every process that syncs this team dir. It tells a local
 * edit waiting to be pushed (local changed, server did not) from a conflict (both changed).
 */
export class SyncBase {
  constructor(readonly path: string) {}

  async load(): Promise<Map<string, string>> {
    try {
      const v = JSON.parse(await readFile(this.path, 'utf8')) as { keys?: Record<string, string> }
      return new Map(Object.entries(v.keys ?? {}).filter(([, c]) => typeof c === 'string'))
    } catch {
      return new Map()
    }
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
