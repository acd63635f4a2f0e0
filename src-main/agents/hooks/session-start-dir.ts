import { basename, dirname, isAbsolute } from 'node:path'
import { projectDirNameCandidates } from '../../core/paths/sanitize.js'
import { recordedCwds } from '../../core/sessions/recorded-cwds.js'

/** How much of a transcript is read for the `cwd` its session started in (its first lines). */
const HEAD_BYTES = 64 * 1024

/**
 * The folder a Claude Code session started in, whose memory it keeps. A hook's `cwd` is where the
 * session's shell is now: after a `cd` into a nested repository (a submodule, a package with a
 * `.git` of its own) it names another project, while Claude Code keeps reading and writing the
 * memory of the one it started in. Its transcript lives in `<projects>/<sanitized start dir>/`:
 * the start dir is the hook's `cwd` or the nearest folder above it with that name; else the first
 * `cwd` the transcript recorded; else the hook's `cwd`.
 */
export async function sessionStartDir(input: { cwd: string; transcript_path: string }): Promise<string> {
  const slug = basename(dirname(input.transcript_path))
  for (let dir = input.cwd; ; dir = dirname(dir)) {
    if (projectDirNameCandidates(dir).includes(slug)) return dir
    if (dirname(dir) === dir) break
  }
  // None before the session has written its transcript (its first prompt): the hook's cwd is it.
  return (await recordedCwds(input.transcript_path, HEAD_BYTES)).find((d) => isAbsolute(d)) ?? input.cwd
}

/**
 * A hook's input with `cwd` set to the session's start dir (sessionStartDir), which every part of
 * a hook then takes its project from; anything that is not a hook's input is returned as it is.
 */
export async function withSessionCwd<T>(raw: T): Promise<T> {
  const input = raw as { cwd?: unknown; transcript_path?: unknown } | null
  if (typeof input !== 'object' || input === null) return raw
  const { cwd, transcript_path } = input
  if (typeof cwd !== 'string' || !isAbsolute(cwd) || typeof transcript_path !== 'string' || !transcript_path)
    return raw
  const start = await sessionStartDir({ cwd, transcript_path })
  return start === cwd ? raw : ({ ...input, cwd: start } as T)
}
