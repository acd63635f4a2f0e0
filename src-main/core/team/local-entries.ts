import { readdir, readFile, stat } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { validateTeamMemKey } from './keys.js'
import { describeFindings, scanForSecrets } from './secret-scan.js'

export const MAX_TEAM_FILE_BYTES = 250_000

export type SkipKind = 'too_large' | 'secret' | 'invalid_key' | 'over_entry_limit' | 'unreadable'

export interface SkippedEntry {
  key: string
  kind: SkipKind
  reason: string
}

/** The team dir's uploadable files: valid keys, ≤ 250,000 bytes, no detected secret. */
export async function readLocalTeamEntries(
  teamDir: string,
): Promise<{ entries: Map<string, string>; skipped: SkippedEntry[] }> {
  const entries = new Map<string, string>()
  const skipped: SkippedEntry[] = []
  let names: string[]
  try {
    names = await readdir(teamDir, { recursive: true })
  } catch {
    return { entries, skipped }
  }
  for (const name of names.sort()) {
    const key = name.split(sep).join('/')
    if (!key.endsWith('.md') || key.split('/').some((s) => s.startsWith('.'))) continue
    try {
      validateTeamMemKey(key)
    } catch (e) {
      skipped.push({ key, kind: 'invalid_key', reason: (e as Error).message })
      continue
    }
    const path = join(teamDir, name)
    try {
      const st = await stat(path)
      if (!st.isFile()) continue
      if (st.size > MAX_TEAM_FILE_BYTES) {
        skipped.push({
          key,
          kind: 'too_large',
          reason: `${st.size} bytes is over the ${MAX_TEAM_FILE_BYTES}-byte limit`,
        })
        continue
      }
      const content = await readFile(path, 'utf8')
      const secrets = scanForSecrets(content)
      if (secrets.length) {
        skipped.push({ key, kind: 'secret', reason: `not uploaded: contains a ${describeFindings(secrets)}` })
        continue
      }
      entries.set(key, content)
    } catch (e) {
      skipped.push({ key, kind: 'unreadable', reason: (e as Error).message })
    }
  }
  return { entries, skipped }
}
