import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { toErrorValue } from '../../../src-shared/errors.js'
import { count, grouped } from '../../../src-shared/words.js'
import { strongEtag } from '../../../src-shared/etag.js'
import { teamEntryProblem } from '../../../src-shared/team-entry-text.js'
import { KeyTwins } from '../../../src-shared/key-twins.js'
import { putFileOver, type RecordedWrite } from '../store/recorded-write.js'
import { readIfExists } from '../store/atomic-write.js'
import { type PutResult, TeamApiError, type TeamApiClient } from './api-client.js'
import { entryChecksum } from './checksum.js'
import { validateTeamMemWritePath } from './keys.js'
import { readLocalTeamEntries, scanEntryForSecrets, type SkippedEntry } from './local-entries.js'
import { newRetryBudget, type RetryOptions, withRetries } from './retry.js'
import type { SyncBase, SyncBaseState } from './sync-base.js'
import type { Scanner } from '../store/scan.js'

export const MAX_PUT_BODY_BYTES = 200_000
const MAX_CONFLICT_RETRIES = 2

/** Created by the caller and passed through every call: no module-level state. */
export interface SyncState {
  etag?: string
  serverChecksums?: Map<string, string>
  serverMaxEntries?: number
}

export function createSyncState(): SyncState {
  return {}
}

export interface SyncDeps extends RetryOptions {
  api: TeamApiClient
  repo: string
  teamDir: string
  state: SyncState
  /** What each key was at the last agreeing sync; without one every differing key counts as a conflict. */
  base?: SyncBase
  /**
   * Before a pull overwrites a local file: keep the local version (history). `conflict`: the local
   * file had changes of its own since the last sync, which the server's version replaces on disk.
   * May return the history version that holds the local content.
   */
  beforeOverwrite?: (
    key: string,
    path: string,
    previous: string,
    kind: 'update' | 'conflict',
  ) => Promise<number | void> | number | void
  /** How the pull's writes reach history. */
  record?: RecordedWrite
  /** Where the team files are read (the entry point's choice). */
  scanner?: Scanner
}

/** A key both sides changed since the last sync: the server's version won on disk. */
export interface SyncConflict {
  key: string
  /** The history version holding the local content that lost (to restore it and push it). */
  localVersion?: number
}

export interface PullResult {
  pulled: string[]
  /** Keys the server no longer has (deleted there) whose unchanged local copy was removed. */
  removed: string[]
  unchanged: number
  /** Entries the server sent that were not written (a name no file system takes, a secret, a write error). */
  skipped: SkippedEntry[]
  notFound: boolean
  /** Local edits not yet pushed, left alone. */
  pending: string[]
  conflicts: SyncConflict[]
}

export interface PushResult {
  pushed: string[]
  skipped: SkippedEntry[]
  /** 412 retries. */
  conflicts: number
  batches: number
}

export interface SyncResult {
  pull: PullResult
  push: PushResult
}

async function localMatchesServer(deps: SyncDeps): Promise<boolean> {
  const known = deps.state.serverChecksums
  if (!known || !deps.state.etag) return false
  for (const [key, sum] of known) {
    const path = await validateTeamMemWritePath(deps.teamDir, key).catch(() => undefined)
    const local = path ? await readIfExists(path) : null
    if (local === null || entryChecksum(local) !== sum) return false
  }
  return true
}

/**
 * Pull, per key, against the last agreeing sync (the base): a key the server did not change since
 * then but the local file did is a pending push, left alone; a key only the server changed is
 * written; a key both changed is a conflict — the server's version goes on disk (SPEC §9) after
 * `beforeOverwrite` kept the local one. Files already matching are left alone (mtime kept).
 */
export async function pullTeamMemory(deps: SyncDeps): Promise<PullResult> {
  const out: PullResult = {
    pulled: [],
    removed: [],
    unchanged: 0,
    skipped: [],
    notFound: false,
    pending: [],
    conflicts: [],
  }
  const { keys: base, pushing } = await loadBase(deps)
  // A conditional GET only when nothing local is missing: a local delete is restored by the next pull.
  const ifNoneMatch = (await localMatchesServer(deps)) ? deps.state.etag : undefined
  const r = await withRetries(() => deps.api.get(deps.repo, { ifNoneMatch }), deps)
  if (r.status === 304) {
    out.unchanged = deps.state.serverChecksums?.size ?? 0
    return out
  }
  if (r.status === 404) {
    deps.state.etag = undefined
    deps.state.serverChecksums = new Map()
    out.notFound = true
    return out
  }
  const entries = new Map(Object.entries(r.doc.content.entries ?? {}))
  const checksums = new Map(
    [...entries].map(([k, text]) => [k, r.doc.content.entryChecksums?.[k] ?? entryChecksum(text)]),
  )
  adoptStoredPushes(base, pushing, checksums)
  const pull: Pull = { deps, base, out }
  for (const key of [...entries.keys()].sort())
    await atKey(pull, key, (path) => pullEntry(pull, key, path, entries.get(key)!, checksums.get(key)!))
  for (const [key, sum] of [...base])
    if (!entries.has(key)) await atKey(pull, key, (path) => removeDeletedEntry(pull, key, path, sum))
  deps.state.etag = r.etag
  deps.state.serverChecksums = checksums
  await deps.base?.save(base, pushing)
  return out
}

const loadBase = async (deps: SyncDeps): Promise<SyncBaseState> =>
  (await deps.base?.loadState()) ?? { keys: new Map(), pushing: new Map() }

/**
 * A push whose answer never came may have been stored: where the server holds exactly what it
 * sent, both sides agree, and that is the key's base. Without this, the next local edit would read
 * as a conflict and the server's copy of the user's own earlier edit would replace it on disk.
 */
function adoptStoredPushes(
  base: Map<string, string>,
  pushing: Map<string, string>,
  server: ReadonlyMap<string, string>,
): void {
  for (const [key, sum] of [...pushing])
    if (server.get(key) === sum) {
      base.set(key, sum)
      pushing.delete(key)
    }
}

/** A skip record for an entry a pull could not or must not write; the other entries go on. */
const unwritable = (key: string, e: unknown): SkippedEntry => {
  const { code, message } = toErrorValue(e)
  return {
    key,
    kind:
      code === 'INVALID_NAME' || code === 'PATH_TOO_LONG' || code === 'INVALID_PATH'
        ? 'invalid_key'
        : 'unwritable',
    reason: `not written: ${message}`,
  }
}

/** One pull in progress: what it writes with, the agreed base it updates, what it reports. */
interface Pull {
  deps: SyncDeps
  base: Map<string, string>
  out: PullResult
}

/** Runs one key's step at its validated path; a key it cannot write is reported and the pull goes on. */
async function atKey(
  pull: Pull,
  key: string,
  step: (path: string) => Promise<SkippedEntry | undefined>,
): Promise<void> {
  let skip: SkippedEntry | undefined
  try {
    skip = await step(await validateTeamMemWritePath(pull.deps.teamDir, key))
  } catch (e) {
    skip = unwritable(key, e)
  }
  if (skip) pull.out.skipped.push(skip)
}

/** Writes one pulled entry (or leaves it, see pullTeamMemory); a skip record when it must not. */
async function pullEntry(
  { deps, base, out }: Pull,
  key: string,
  path: string,
  content: string,
  serverSum: string,
): Promise<SkippedEntry | undefined> {
  const current = await readIfExists(path)
  if (current === content) {
    base.set(key, serverSum)
    out.unchanged++
    return undefined
  }
  const was = base.get(key)
  if (current !== null && was !== undefined && was === serverSum) {
    out.pending.push(key) // only the local file changed: it waits for the push
    return undefined
  }
  // What no file keeps as sent (a lone surrogate) would differ from the server at every pull.
  const refused = teamEntryProblem(key, content)
  if (refused)
    return { key, kind: refused.kind, reason: `not written: the server's version ${refused.message}` }
  // Another client (an old Memdir, a script) may have stored a secret: it never reaches this disk.
  const secret = await scanEntryForSecrets(key, content)
  if (secret)
    return {
      ...secret,
      reason: `not written: the server's version contains ${secret.reason.replace(/^not uploaded: contains /, '')}`,
    }
  let conflict: SyncConflict | undefined
  if (current !== null) {
    const kind = was !== undefined && entryChecksum(current) === was ? 'update' : 'conflict'
    const version = await deps.beforeOverwrite?.(key, path, current, kind)
    if (kind === 'conflict')
      conflict = { key, ...(typeof version === 'number' ? { localVersion: version } : {}) }
  }
  await mkdir(dirname(path), { recursive: true })
  // Written only over what was read: a save made meanwhile is the user's newer text, left to push.
  if (!(await putFileOver(path, content, deps.record, current))) {
    out.pending.push(key)
    return undefined
  }
  if (conflict) out.conflicts.push(conflict)
  base.set(key, serverSum)
  out.pulled.push(key)
  return undefined
}

/**
 * A key the last agreeing sync had and the server no longer has was deleted there: an unchanged
 * local copy goes too (kept in history first); a locally edited one stays, to be pushed again.
 */
async function removeDeletedEntry(
  { deps, base, out }: Pull,
  key: string,
  path: string,
  sum: string,
): Promise<undefined> {
  const local = await readIfExists(path)
  if (local !== null && entryChecksum(local) !== sum) return undefined
  if (local !== null) {
    await deps.beforeOverwrite?.(key, path, local, 'update')
    // An edit made meanwhile keeps the file, as an edited copy does, to be pushed again.
    if (!(await putFileOver(path, null, deps.record, local))) return undefined
    out.removed.push(key)
  }
  base.delete(key)
  return undefined
}

async function refreshHashes(deps: SyncDeps): Promise<void> {
  const r = await withRetries(() => deps.api.get(deps.repo, { view: 'hashes' }), deps)
  if (r.status === 200) {
    deps.state.etag = r.etag
    deps.state.serverChecksums = new Map(Object.entries(r.doc.content.entryChecksums ?? {}))
  } else if (r.status === 404) {
    deps.state.etag = undefined
    deps.state.serverChecksums = new Map()
  }
}

/** Greedy batches over sorted keys, each body under 200,000 bytes; an oversized entry goes alone. */
export function planBatches(
  keys: readonly string[],
  entries: ReadonlyMap<string, string>,
  maxBytes = MAX_PUT_BODY_BYTES,
): string[][] {
  const batches: string[][] = []
  let current: string[] = []
  let size = 2 + '{"entries":{}}'.length
  for (const key of [...keys].sort()) {
    const cost = batchCost(key, entries)
    if (current.length && size + cost > maxBytes) {
      batches.push(current)
      current = []
      size = 2 + '{"entries":{}}'.length
    }
    current.push(key)
    size += cost
  }
  if (current.length) batches.push(current)
  return batches
}

/** What one entry adds to a PUT body, in bytes. */
const batchCost = (key: string, entries: ReadonlyMap<string, string>) =>
  Buffer.byteLength(JSON.stringify(key) + ':' + JSON.stringify(entries.get(key) ?? '') + ',')

/**
 * The keys that can join what the server holds: a new key that a teammate on macOS or Windows could
 * not keep beside a stored or an earlier one (a case twin of a file or folder, a file where a
 * folder is) is reported and not sent, since the server refuses it (src-shared/key-twins.ts).
 */
function withoutTwins(keys: readonly string[], server: ReadonlyMap<string, string>, skipped: SkippedEntry[]) {
  const twins = new KeyTwins(server.keys())
  return keys.filter((key) => {
    if (server.has(key)) return true
    const twin = twins.twinOf(key)
    if (!twin) {
      twins.add(key)
      return true
    }
    if (!skipped.some((s) => s.key === key))
      skipped.push({
        key,
        kind: 'key_twin',
        reason: `not uploaded: it cannot join ${twin.existing}: ${twin.why}`,
      })
    return false
  })
}

/** Push: only keys whose content hash differs from the server's, in batches, resolving 412 conflicts. */
export async function pushTeamMemory(deps: SyncDeps): Promise<PushResult> {
  // Secrets are scanned for in what is about to be uploaded: what the server has needs no scan.
  const { entries, skipped } = await readLocalTeamEntries(deps.teamDir, {
    scan: false,
    scanner: deps.scanner,
  })
  const out: PushResult = { pushed: [], skipped, conflicts: 0, batches: 0 }
  const { keys: base, pushing } = await loadBase(deps)
  if (!deps.state.serverChecksums) await refreshHashes(deps)
  const scanned = new Set<string>()
  const done = new Set<string>()
  const sums = new Map([...entries].map(([k, text]) => [k, entryChecksum(text)]))
  // Halved whenever the server, or a proxy before it (nginx's client_max_body_size, a body
  // parser's limit), refuses a request as too large; a key too large alone is reported.
  let batchBytes = MAX_PUT_BODY_BYTES
  for (;;) {
    const server = deps.state.serverChecksums ?? new Map<string, string>()
    adoptStoredPushes(base, pushing, server)
    for (const [k, text] of [...entries]) {
      if (scanned.has(k) || server.get(k) === sums.get(k)) continue
      scanned.add(k)
      const secret = await scanEntryForSecrets(k, text)
      if (secret) {
        out.skipped.push(secret)
        entries.delete(k)
      }
    }
    let allowed = withoutTwins([...entries.keys()].sort(), server, out.skipped)
    const max = deps.state.serverMaxEntries
    if (max !== undefined) {
      // The server counts what it holds plus what is new: only that many new keys fit.
      const fresh = allowed.filter((k) => !server.has(k))
      const room = Math.max(0, max - server.size)
      const left = new Set(fresh.slice(room))
      for (const key of left)
        if (!out.skipped.some((s) => s.key === key))
          out.skipped.push({
            key,
            kind: 'over_entry_limit',
            reason: fullServerAdvice(deps.repo, max, server.size),
          })
      allowed = allowed.filter((k) => !left.has(k))
    }
    // A key the server changed since the last agreeing sync is not overwritten: the next pull
    // settles it (server wins on disk, the local version kept in history).
    const delta = allowed.filter((k) => {
      if (done.has(k)) return false
      if (server.get(k) === sums.get(k)) {
        // Both sides hold the same content (another client wrote it too, or a push of this one
        // was stored unanswered): that is agreement, or the next local edit would read as a
        // conflict and lose to this copy.
        base.set(k, sums.get(k)!)
        return false
      }
      if (server.has(k) && (deps.base ? base.get(k) !== server.get(k) : false)) {
        if (!out.skipped.some((s) => s.key === k))
          out.skipped.push({
            key: k,
            kind: 'conflict',
            reason: 'changed on the server too since the last sync: pull first',
          })
        return false
      }
      return true
    })
    if (!delta.length) {
      await deps.base?.save(base, pushing)
      return sortedSkips(out)
    }
    let restart = false
    for (const batch of planBatches(delta, entries, batchBytes)) {
      const body = Object.fromEntries(batch.map((k) => [k, entries.get(k) as string]))
      // Noted before it leaves: if no answer comes, the next sync can still tell it was stored.
      for (const k of batch) pushing.set(k, sums.get(k)!)
      await deps.base?.save(base, pushing)
      let r: PutResult
      try {
        r = await withRetries(() => deps.api.put(deps.repo, body, deps.state.etag), deps)
      } catch (e) {
        // A refusal (4xx) is an answer: nothing of the batch was stored. No answer (the network, a
        // 5xx) keeps the notes.
        if (e instanceof TeamApiError && e.status !== undefined && e.status >= 400 && e.status < 500)
          await forgetPushes(deps, base, pushing, batch)
        throw e
      }
      out.batches++
      if (r.status === 200) {
        deps.state.etag = strongEtag(r.result.checksum)
        for (const k of batch) {
          server.set(k, sums.get(k)!)
          base.set(k, sums.get(k)!)
          pushing.delete(k)
          done.add(k)
          out.pushed.push(k)
        }
        deps.state.serverChecksums = server
        continue
      }
      // 412 and 413 are answers too: the server stored nothing of the batch.
      await forgetPushes(deps, base, pushing, batch)
      if (r.status === 'body_too_large') {
        if (batch.length > 1) {
          const bytes = batch.reduce((n, k) => n + batchCost(k, entries), 0)
          batchBytes = Math.max(1, Math.floor(bytes / 2))
        } else {
          const key = batch[0]!
          const bytes = batchCost(key, entries)
          entries.delete(key)
          out.skipped.push({
            key,
            kind: 'too_large',
            reason: `not uploaded: the team server (or a proxy before it) refuses a request this large (${bytes} bytes): ${r.said}`,
          })
        }
      } else if (r.status === 412) {
        out.conflicts++
        if (out.conflicts > MAX_CONFLICT_RETRIES) {
          throw new TeamApiError(
            'team memory changed on the server during push; will retry later',
            412,
            false,
          )
        }
        await refreshHashes(deps)
      } else {
        // A full server: retrying cannot fix it, the sync ends here and says what to remove.
        deps.state.serverMaxEntries = r.maxEntries
        const fresh = delta.filter((k) => !server.has(k))
        throw new TeamApiError(
          `the team server refused the push: ${fullServerAdvice(deps.repo, r.maxEntries, r.heldEntries ?? server.size)} This push would add ${count(fresh.length, 'new key')} (${fresh.slice(0, 5).join(', ')}${fresh.length > 5 ? ', …' : ''}).`,
          413,
          true,
        )
      }
      restart = true
      break
    }
    if (!restart) {
      await deps.base?.save(base, pushing)
      return sortedSkips(out)
    }
  }
}

/** Drops the notes of a batch the server answered without storing it (see SyncBaseState.pushing). */
async function forgetPushes(
  deps: SyncDeps,
  base: ReadonlyMap<string, string>,
  pushing: Map<string, string>,
  batch: readonly string[],
): Promise<void> {
  for (const k of batch) pushing.delete(k)
  await deps.base?.save(base, pushing)
}

/** What a full server means for this repo, and what the user can do about it. */
function fullServerAdvice(repo: string, max: number, held: number): string {
  return `${repo} may hold at most ${count(max, 'key')} on the team server and holds ${grouped(held)}. Remove keys the team no longer needs (\`memdir team-server key delete --repo ${repo} KEY\`, or ask the server's operator), or move files out of team/; until then new files stay local.`
}

function sortedSkips(out: PushResult): PushResult {
  out.skipped.sort((a, b) => a.key.localeCompare(b.key))
  return out
}

/**
 * Runs `fn` as one sync: the only one of this team dir across processes (when a base is kept),
 * with a fresh retry budget that every request of it shares.
 */
export function exclusiveSync<T>(deps: SyncDeps, fn: () => Promise<T>): Promise<T> {
  deps.budget = newRetryBudget()
  return deps.base ? deps.base.exclusive(fn) : fn()
}

/** sync = pull then push, as the only sync of this team dir. */
export async function syncTeamMemory(deps: SyncDeps): Promise<SyncResult> {
  return exclusiveSync(deps, async () => {
    const pull = await pullTeamMemory(deps)
    const push = await pushTeamMemory(deps)
    return { pull, push }
  })
}
