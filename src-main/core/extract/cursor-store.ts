import { rethrowUnless, isMissing } from '../../../src-shared/errors.js'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'
import { writeFileAtomic } from '../store/atomic-write.js'

/**
 * Where extraction left off in each session (the uuid of the last message it processed). The app,
 * `memdir watch` and hook-started runs share one file per memory dir, so none re-extracts what
 * another already did.
 */
export interface CursorStore {
  get(sessionId: string): Promise<string | undefined>
  set(sessionId: string, uuid: string): Promise<void>
  /**
   * Every message uuid an extraction of any session ended at, now or in its last runs. A session
   * copied from another (`claude --resume <id> --fork-session` writes the old messages, uuids and
   * all, into a new session's transcript) was extracted up to the last of these it holds.
   */
  runEnds(): Promise<ReadonlySet<string>>
}

/** Earlier run ends kept per session: a fork is usually made at a session's end, or a few turns back. */
const EARLIER_ENDS = 32

export class MemoryCursorStore implements CursorStore {
  private readonly cursors = new Map<string, string[]>()
  async get(sessionId: string) {
    return this.cursors.get(sessionId)?.at(-1)
  }
  async set(sessionId: string, uuid: string) {
    this.cursors.set(sessionId, [...(this.cursors.get(sessionId) ?? []), uuid].slice(-(EARLIER_ENDS + 1)))
  }
  async runEnds() {
    return new Set([...this.cursors.values()].flat())
  }
}

interface CursorFile {
  [sessionId: string]: { uuid: string; at: number; earlier?: string[] }
}

const MAX_SESSIONS = 500

export class FileCursorStore implements CursorStore {
  constructor(readonly path: string) {}

  private async read(): Promise<CursorFile> {
    try {
      const data = JSON.parse(await readFile(this.path, 'utf8')) as unknown
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as CursorFile) : {}
    } catch (e) {
      rethrowUnless(isMissing(e) || e instanceof SyntaxError, e)
      return {} // missing or torn: at worst a session's messages are looked at again
    }
  }

  async get(sessionId: string) {
    const c = (await this.read())[sessionId]
    return typeof c?.uuid === 'string' ? c.uuid : undefined
  }

  async set(sessionId: string, uuid: string) {
    await mkdir(dirname(this.path), { recursive: true })
    const release = await lockfile.lock(this.path, {
      realpath: false,
      stale: 10_000,
      retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
    })
    try {
      const all = await this.read()
      const was = all[sessionId]
      const before = ends(was)
      const earlier = typeof was?.uuid === 'string' && was.uuid !== uuid ? [...before, was.uuid] : before
      all[sessionId] = {
        uuid,
        at: Date.now(),
        ...(earlier.length ? { earlier: earlier.slice(-EARLIER_ENDS) } : {}),
      }
      const kept = Object.entries(all)
        .sort((a, b) => b[1].at - a[1].at)
        .slice(0, MAX_SESSIONS)
      await writeFileAtomic(this.path, JSON.stringify(Object.fromEntries(kept)))
    } finally {
      await release()
    }
  }

  async runEnds() {
    return new Set(
      Object.values(await this.read()).flatMap((c) => [
        ...ends(c),
        ...(typeof c?.uuid === 'string' ? [c.uuid] : []),
      ]),
    )
  }
}

/** A cursor entry's earlier run ends (none in a file an older Memdir wrote, or a hand-edited one). */
const ends = (c: CursorFile[string] | undefined): string[] =>
  Array.isArray(c?.earlier) ? c.earlier.filter((u): u is string => typeof u === 'string') : []
