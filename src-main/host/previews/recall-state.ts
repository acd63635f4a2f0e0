import { ignoreFsError, isMissing, orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { readFileSync } from 'node:fs'
import { readdir, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeStateFileAtomicSync } from '../../core/store/atomic-write.js'
import { nodeCrypto } from '../../core/store/lazy-crypto.js'
import type { TranscriptMark } from '../../core/sessions/client-memory.js'

/** What recall already surfaced in one Claude Code session, and how many bytes it injected (SPEC §6). */
export interface SessionRecallState {
  surfaced: string[]
  injectedBytes: number
  /** How far the session's transcript was read for what the client recalled itself. */
  transcript?: TranscriptMark
  /** The client process of the last prompt (agents/hooks/client-process.ts), where known. */
  client?: string
}

const markOf = (v: unknown): TranscriptMark | undefined =>
  typeof v === 'object' &&
  v !== null &&
  'offset' in v &&
  'ino' in v &&
  Number.isSafeInteger(v.offset) &&
  Number.isSafeInteger(v.ino)
    ? { offset: v.offset as number, ino: v.ino as number }
    : undefined

const STALE_MS = 7 * 24 * 60 * 60 * 1000

/** A session id that can be a file name as it is (Claude Code's are UUIDs). */
const PLAIN_ID = /^[\w.-]{1,120}$/

/**
 * The session's state file. Any other id (a path, another client's long id) is named by its hash
 * as well: `a/b` and `a_b`, or two ids alike in their first 120 characters, never share a file, so
 * one session never counts what another was shown.
 */
function fileFor(dir: string, sessionId: string): string {
  if (PLAIN_ID.test(sessionId)) return join(dir, `${sessionId}.json`)
  const hash = nodeCrypto().createHash('sha256').update(sessionId).digest('hex').slice(0, 32)
  return join(dir, `${sessionId.replace(/[^\w.-]/g, '_').slice(0, 60)}-${hash}.json`)
}

/** A session's state; `fresh` when it is the session's first prompt (nothing saved yet). Read blocking: a hook's small file. */
export async function loadRecallState(
  dir: string,
  sessionId: string,
): Promise<SessionRecallState & { fresh: boolean }> {
  try {
    const data = JSON.parse(readFileSync(fileFor(dir, sessionId), 'utf8')) as Partial<SessionRecallState>
    return {
      surfaced: Array.isArray(data.surfaced) ? data.surfaced.filter((p) => typeof p === 'string') : [],
      injectedBytes: typeof data.injectedBytes === 'number' ? data.injectedBytes : 0,
      ...(markOf(data.transcript) ? { transcript: markOf(data.transcript) } : {}),
      ...(typeof data.client === 'string' ? { client: data.client } : {}),
      fresh: false,
    }
  } catch (e) {
    rethrowUnless(isMissing(e) || e instanceof SyntaxError, e)
    return { surfaced: [], injectedBytes: 0, fresh: true }
  }
}

export function saveRecallState(dir: string, sessionId: string, state: SessionRecallState): void {
  // Losing it in a power cut only means a memory may be shown twice: no fsync on this hot path.
  writeStateFileAtomicSync(fileFor(dir, sessionId), JSON.stringify(state))
}

const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000
const PRUNED_MARK = '.pruned'

/**
 * Sessions untouched for a week are over: their state files go. Checked at most once a day (the
 * mark file's mtime says when), since every new session would otherwise stat them all.
 */
export async function pruneRecallStates(dir: string, now = Date.now()): Promise<void> {
  const mark = join(dir, PRUNED_MARK)
  const last = await stat(mark).then(
    (s) => s.mtimeMs,
    () => 0,
  )
  if (now - last < PRUNE_EVERY_MS) return
  try {
    await writeFile(mark, '')
    await utimes(mark, now / 1000, now / 1000)
  } catch (e) {
    rethrowUnless(isMissing(e) || e instanceof SyntaxError, e)
    return // no state dir (nothing saved yet): nothing to prune
  }
  for (const name of await orIfMissing(readdir(dir), [] as string[])) {
    if (name === PRUNED_MARK) continue
    const p = join(dir, name)
    const st = await orIfMissing(stat(p), undefined)
    if (st && now - st.mtimeMs > STALE_MS) await unlink(p).catch(ignoreFsError)
  }
}
