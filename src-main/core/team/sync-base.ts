import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'
import { isMissing, MemdirError, messageOf } from '../../../src-shared/errors.js'
import { writeFileAtomic } from '../store/atomic-write.js'

/** What one sync reads and writes: the agreed checksums, and what it sent without hearing back. */
export interface SyncBaseState {
  keys: Map<string, string>
  /**
   * The checksum of each key a push sent whose answer never came (a dropped connection, a server
   * that stopped): the server may have stored it. A server holding exactly that is agreement.
   */
  pushing: Map<string, string>
}

/** The string values of a JSON object; anything else (a string, a list) holds none. */
const stringEntries = (v: unknown) =>
  new Map(
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')
      : [],
  )

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
    return (await this.loadState()).keys
  }

  /** The base and the pushes not heard back from. */
  async loadState(): Promise<SyncBaseState> {
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
        const v = JSON.parse(text) as { keys?: unknown; pushing?: unknown }
        return { keys: stringEntries(v.keys), pushing: stringEntries(v.pushing) }
      } catch (e) {
        throw new MemdirError(
          'INTERNAL',
          `the team sync state ${path} is corrupt (${messageOf(e)}): delete it and sync again; local edits are then kept as conflicts in history`,
        )
      }
    }
    return { keys: new Map(), pushing: new Map() }
  }

  async save(keys: ReadonlyMap<string, string>, pushing: ReadonlyMap<string, string>): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true })
    const sorted = (m: ReadonlyMap<string, string>) =>
      Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)))
    const state = pushing.size ? { keys: sorted(keys), pushing: sorted(pushing) } : { keys: sorted(keys) }
    await writeFileAtomic(this.path, JSON.stringify(state, null, 1) + '\n')
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
