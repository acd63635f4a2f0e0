import { existsSync } from 'node:fs'
import { ancestorProcesses, clientProcessOf, forkOrigin } from '../../core/sessions/client-process.js'

/**
 * A prompt hook's input with what only the hook's own process can see, its ancestors
 * (core/sessions/client-process.ts): `memdir_client`, the client process (Linux), so the recall
 * knows a session taken up again in a new process; and at a session's first prompt, before its
 * transcript exists, `memdir_fork_of`, the session it was forked from. Linux reads /proc (two
 * small reads a process: every prompt); elsewhere a `ps` runs, only at a session's first prompt.
 */
export async function withClientProcess<T>(raw: T): Promise<T> {
  const input = raw as { transcript_path?: unknown } | null
  if (typeof input !== 'object' || input === null) return raw
  const transcript = input.transcript_path
  if (typeof transcript !== 'string' || !transcript) return raw
  const first = !existsSync(transcript)
  if (!first && process.platform !== 'linux') return raw
  const ancestors = await ancestorProcesses()
  const fork = first
    ? forkOrigin(
        transcript,
        ancestors.map((a) => a.argv),
      )
    : undefined
  const client = clientProcessOf(ancestors)
  if (!fork && !client) return raw
  return {
    ...input,
    ...(client ? { memdir_client: client } : {}),
    ...(fork ? { memdir_fork_of: fork } : {}),
  } as T
}
