import { existsSync } from 'node:fs'
import { ancestorCommandLines, forkOrigin } from '../../core/sessions/fork-origin.js'

/**
 * A prompt hook's input with `memdir_fork_of` set when its session was forked from another
 * (core/sessions/fork-origin.ts): only at a session's first prompt, before its transcript exists —
 * from then on the transcript holds what was copied, and the recall reads it there.
 */
export async function withForkOrigin<T>(raw: T): Promise<T> {
  const input = raw as { transcript_path?: unknown } | null
  if (typeof input !== 'object' || input === null || typeof input.transcript_path !== 'string') return raw
  if (!input.transcript_path || existsSync(input.transcript_path)) return raw
  const origin = forkOrigin(input.transcript_path, await ancestorCommandLines())
  return origin ? ({ ...input, memdir_fork_of: origin } as T) : raw
}
