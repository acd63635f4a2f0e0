import { orIfUnreadable } from '../../../src-shared/errors.js'
import { readRegularHead } from '../store/regular-file.js'

/**
 * The folders (`cwd`) a Claude Code transcript recorded in its first `maxBytes`, in order: where its
 * session ran, the first being where it started. Read from the head alone (a transcript runs to
 * many MB), without parsing its lines: Claude Code writes compact JSON, one `"cwd":"…"` per entry.
 * A transcript that is missing or unreadable has none.
 */
export async function recordedCwds(transcriptPath: string, maxBytes: number): Promise<string[]> {
  const head = await orIfUnreadable(readRegularHead(transcriptPath, maxBytes), '')
  return [...head.matchAll(/"cwd":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string)
}
