import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { putFile, type RecordedWrite } from '../history/recorded-write.js'
import { readIfExists } from '../store/atomic-write.js'
import { TeamApiError, type TeamApiClient } from './api-client.js'
import { entryChecksum } from './checksum.js'
import { validateTeamMemWritePath } from './keys.js'
import { readLocalTeamEntries, scanEntryForSecrets, type SkippedEntry } from './local-entries.js'
import { type RetryOptions, withRetries } from './retry.js'
import type { SyncBase } from './sync-base.js'

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
}

/** A key both sides changed since the last sync: the server's version won on disk. */
export interface SyncConflict {
  key: string
  /** The history version holding the local content that lost (to restore it and push it). */
  localVersion?: number
}

export interface PullResult {
  pulled: string[]
  unchanged: number
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
    unchanged: 0,
    skipped: [],
    notFound: false,
    pending: [],
    conflicts: [],
  }
  const base = (await deps.base?.load()) ?? new Map<string, string>()
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
  const entries = r.doc.content.entries ?? {}
  const checksums = new Map(
    Object.keys(entries).map((k) => [
      k,
      r.doc.content.entryChecksums?.[k] ?? entryChecksum(entries[k] as string),
    ]),
  )
  for (const key of Object.keys(entries).sort()) {
    const content = entries[key] as string
    const serverSum = checksums.get(key)!
    let path: string
    try {
      path = await validateTeamMemWritePath(deps.teamDir, key)
    } catch (e) {
      out.skipped.push({ key, kind: 'invalid_key', reason: (e as Error).message })
      continue
    }
    const current = await readIfExists(path)
    if (current === content) {
      base.set(key, serverSum)
      out.unchanged++
      continue
    }
    const was = base.get(key)
    if (current !== null && was !== undefined && was === serverSum) {
      out.pending.push(key) // only the local file changed: it waits for the push
      continue
    }
    if (current !== null) {
      const kind = was !== undefined && entryChecksum(current) === was ? 'update' : 'conflict'
      const version = await deps.beforeOverwrite?.(key, path, current, kind)
      if (kind === 'conflict')
        out.conflicts.push({ key, ...(typeof version === 'number' ? { localVersion: version } : {}) })
    }
    await mkdir(dirname(path), { recursive: true })
    await putFile(path, content, deps.record)
    base.set(key, serverSum)
    out.pulled.push(key)
  }
  deps.state.etag = r.etag
  deps.state.serverChecksums = checksums
  await deps.base?.save(base)
  return out
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
export function planBatches(keys: readonly string[], entries: ReadonlyMap<string, string>): string[][] {
  const batches: string[][] = []
  let current: string[] = []
  let size = 2 + '{"entries":{}}'.length
  for (const key of [...keys].sort()) {
    const cost = Buffer.byteLength(JSON.stringify(key) + ':' + JSON.stringify(entries.get(key) ?? '') + ',')
    if (current.length && size + cost > MAX_PUT_BODY_BYTES) {
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

/** Push: only keys whose content hash differs from the server's, in batches, resolving 412 conflicts. */
export async function pushTeamMemory(deps: SyncDeps): Promise<PushResult> {
  // Secrets are scanned for in what is about to be uploaded: what the server has needs no scan.
  const { entries, skipped } = await readLocalTeamEntries(deps.teamDir, { scan: false })
  const out: PushResult = { pushed: [], skipped, conflicts: 0, batches: 0 }
  const base = (await deps.base?.load()) ?? new Map<string, string>()
  if (!deps.state.serverChecksums) await refreshHashes(deps)
  const scanned = new Set<string>()
  const done = new Set<string>()
  const sums = new Map([...entries].map(([k, text]) => [k, entryChecksum(text)]))
  for (;;) {
    const server = deps.state.serverChecksums ?? new Map<string, string>()
    for (const [k, text] of [...entries]) {
      if (scanned.has(k) || server.get(k) === sums.get(k)) continue
      scanned.add(k)
      const secret = await scanEntryForSecrets(k, text)
      if (secret) {
        out.skipped.push(secret)
        entries.delete(k)
      }
    }
    let allowed = [...entries.keys()].sort()
    const max = deps.state.serverMaxEntries
    if (max !== undefined && allowed.length > max) {
      for (const key of allowed.slice(max)) {
        if (!out.skipped.some((s) => s.key === key)) {
          out.skipped.push({
            key,
            kind: 'over_entry_limit',
            reason: `the server keeps at most ${max} entries for this repo`,
          })
        }
      }
      allowed = allowed.slice(0, max)
    }
    // A key the server changed since the last agreeing sync is not overwritten: the next pull
    // settles it (server wins on disk, the local version kept in history).
    const delta = allowed.filter((k) => {
      if (done.has(k) || server.get(k) === sums.get(k)) return false
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
      await deps.base?.save(base)
      return sortedSkips(out)
    }
    let restart = false
    for (const batch of planBatches(delta, entries)) {
      const body = Object.fromEntries(batch.map((k) => [k, entries.get(k) as string]))
      const r = await withRetries(() => deps.api.put(deps.repo, body, deps.state.etag), deps)
      out.batches++
      if (r.status === 200) {
        deps.state.etag = `"${r.result.checksum}"`
        for (const k of batch) {
          server.set(k, sums.get(k)!)
          base.set(k, sums.get(k)!)
          done.add(k)
          out.pushed.push(k)
        }
        deps.state.serverChecksums = server
        continue
      }
      if (r.status === 412) {
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
        if (r.maxEntries === undefined)
          throw new TeamApiError('team server rejected the push as too large', 413, true, r.body)
        deps.state.serverMaxEntries = r.maxEntries
      }
      restart = true
      break
    }
    if (!restart) {
      await deps.base?.save(base)
      return sortedSkips(out)
    }
  }
}

function sortedSkips(out: PushResult): PushResult {
  out.skipped.sort((a, b) => a.key.localeCompare(b.key))
  return out
}

/** Runs `fn` as the only sync of this team dir across processes (when a base is kept). */
export function exclusiveSync<T>(deps: SyncDeps, fn: () => Promise<T>): Promise<T> {
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
