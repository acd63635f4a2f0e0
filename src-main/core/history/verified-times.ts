import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'

/** What of a history entry (history-store.ts) tells when a path was marked as still true. */
interface Marked {
  path: string
  at: number
  change: string
}

/** When each path was last marked as still true (`verify`), from history's entries. */
export function verifiedTimesOf(entries: Iterable<Marked>): Map<string, number> {
  const out = new Map<string, number>()
  for (const e of entries) if (e.change === 'verify') out.set(e.path, Math.max(out.get(e.path) ?? 0, e.at))
  return out
}

/**
 * verifiedTimesOf a history dir, read without opening the store: nothing is created or locked (a
 * recall in a hook's process reads it, and loads nothing of the store), and only the log's verify
 * lines are parsed.
 */
export async function readVerifiedTimes(dir: string): Promise<Map<string, number>> {
  const text = await orIfMissing(readFile(join(dir, 'log.jsonl'), 'utf8'), '')
  const entries: Marked[] = []
  for (const line of text.split('\n')) {
    if (!line.includes('"verify"')) continue
    try {
      entries.push(JSON.parse(line) as Marked)
    } catch (e) {
      rethrowUnless(e instanceof SyntaxError, e) // a torn last line
    }
  }
  return verifiedTimesOf(entries)
}
