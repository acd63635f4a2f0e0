import { rethrowUnless, isMissing } from '../../../src-shared/errors.js'
import { join } from 'node:path'
import { walkFiles } from '../store/walk-files.js'
import { readTextFiles, type Scanner, type TextFileResult } from '../store/scan.js'
import { MAX_TEAM_FILE_BYTES } from '../../../src-shared/team-api.js'
import { memoryNameProblem } from '../../../src-shared/memory-names.js'
import { describeFindings, reportedName, scanMemoryForSecrets } from '../../../src-shared/secret-scan.js'
import { teamEntryProblem } from '../../../src-shared/team-entry-text.js'

export { MAX_TEAM_FILE_BYTES }

export type SkipKind =
  | 'too_large'
  | 'not_text'
  | 'link_outside'
  | 'secret'
  | 'invalid_key'
  | 'over_entry_limit'
  | 'key_twin'
  | 'unreadable'
  | 'unwritable'
  | 'conflict'

/** An entry a sync left out, and why, in words a user can act on (never the secret itself). */
export interface SkippedEntry {
  /** Its key under team/, as the server names it. */
  key: string
  kind: SkipKind
  reason: string
}

/**
 * The team dir's uploadable files: valid keys, ≤ 250,000 bytes, text (the team entry rule), no
 * detected secret. With
 * `scan: false` the caller scans what it is about to upload itself (scanEntryForSecrets).
 */
export async function readLocalTeamEntries(
  teamDir: string,
  opts: { scan?: boolean; scanner?: Scanner } = {},
): Promise<{ entries: Map<string, string>; skipped: SkippedEntry[] }> {
  const entries = new Map<string, string>()
  const skipped: SkippedEntry[] = []
  let names: string[]
  try {
    names = await walkFiles(teamDir)
  } catch (e) {
    rethrowUnless(isMissing(e), e)
    return { entries, skipped }
  }
  const candidates: { key: string; path: string }[] = []
  for (const key of names.sort()) {
    if (!key.endsWith('.md') || key.split('/').some((s) => s.startsWith('.'))) continue
    const problem = memoryNameProblem(key)
    if (problem) {
      skipped.push({ key, kind: 'invalid_key', reason: problem.message })
      continue
    }
    candidates.push({ key, path: join(teamDir, key) })
  }
  // One batch in the scan worker: awaiting a stat and a readFile per file cost ~0.5 ms each.
  const read = await readTextFiles(
    candidates.map((c) => c.path),
    MAX_TEAM_FILE_BYTES,
    opts.scanner,
  )
  for (const [i, { key }] of candidates.entries()) {
    const r = read[i] as TextFileResult
    if (r.kind === 'not_file') continue
    if (r.kind === 'error') {
      skipped.push({ key, kind: 'unreadable', reason: r.message })
    } else if (r.kind === 'too_large') {
      skipped.push({
        key,
        kind: 'too_large',
        reason: `${r.size} bytes is over the ${MAX_TEAM_FILE_BYTES}-byte limit`,
      })
    } else {
      const refused = teamEntryProblem(key, r.text)
      const skip: SkippedEntry | undefined = refused
        ? { key, kind: refused.kind, reason: `not uploaded: it ${refused.message}` }
        : opts.scan === false
          ? undefined
          : await scanEntryForSecrets(key, r.text)
      if (skip) skipped.push(skip)
      else entries.set(key, r.text)
    }
  }
  return { entries, skipped }
}

/** The skip record for a team file that holds a secret (in its text or its name), or undefined when it is clean. */
export async function scanEntryForSecrets(key: string, text: string): Promise<SkippedEntry | undefined> {
  const secrets = await scanMemoryForSecrets(key, text)
  if (!secrets.length) return undefined
  // A key that is itself a credential is reported cut to its prefix, as the server would name it.
  return {
    key: await reportedName(key, secrets),
    kind: 'secret',
    reason: `not uploaded: contains ${describeFindings(secrets)}`,
  }
}
