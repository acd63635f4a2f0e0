import { execFile } from 'node:child_process'
import { open, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isFsError, orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import type { ProjectContext } from '../paths/context.js'
import { getProjectTranscriptDir } from '../paths/team-agent-paths.js'
import { isMainSessionFile } from './session-watcher.js'

export interface ClientVersion {
  version: string
  /** `transcript`: the project's newest session says which client wrote it; `installed`: `claude --version`. */
  source: 'transcript' | 'installed'
}

const VERSION = /"version":"(\d+\.\d+\.\d+)"/g
const TAIL_BYTES = 64 * 1024

/** The client version the end of one transcript names (each entry carries the writer's version). */
async function versionInTranscript(path: string): Promise<string | undefined> {
  const fh = await orIfMissing(open(path, 'r'), undefined)
  if (!fh) return undefined
  try {
    const { size } = await fh.stat()
    const buf = Buffer.alloc(Math.min(size, TAIL_BYTES))
    const { bytesRead } = await fh.read(buf, 0, buf.length, size - buf.length)
    const found = [...buf.subarray(0, bytesRead).toString('utf8').matchAll(VERSION)]
    return found.at(-1)?.[1]
  } finally {
    await fh.close()
  }
}

/** The version of the client that wrote the project's newest session, if any session names one. */
export async function newestTranscriptVersion(transcriptDir: string): Promise<string | undefined> {
  const names = await orIfMissing(readdir(transcriptDir), [] as string[])
  const sessions = await Promise.all(
    names
      .filter((n) => isMainSessionFile(n))
      .map(async (n) => {
        const path = join(transcriptDir, n)
        return { path, mtimeMs: (await orIfMissing(stat(path), undefined))?.mtimeMs ?? 0 }
      }),
  )
  sessions.sort((a, b) => b.mtimeMs - a.mtimeMs)
  for (const s of sessions.slice(0, 5)) {
    const v = await versionInTranscript(s.path).catch((e: unknown) => {
      rethrowUnless(isFsError(e), e)
      return undefined
    })
    if (v) return v
  }
  return undefined
}

const installed = new Map<string, Promise<string | undefined>>()

/** `claude --version` on the context's PATH (asked once per process and PATH; 3 s at most). */
export function installedClientVersion(env: ProjectContext['env']): Promise<string | undefined> {
  const key = env.PATH
  if (!key) return Promise.resolve(undefined)
  let found = installed.get(key)
  if (!found) {
    found = new Promise((resolve) => {
      execFile('claude', ['--version'], { env: { ...env, PATH: key }, timeout: 3000 }, (err, stdout) =>
        resolve(err ? undefined : /(\d+\.\d+\.\d+)/.exec(stdout)?.[1]),
      )
    })
    installed.set(key, found)
  }
  return found
}

/**
 * The Claude Code the user runs in this project: the version in its newest transcript, else the
 * installed `claude`. Undefined when neither is there (a fresh machine, another agent).
 */
export async function detectClientVersion(ctx: ProjectContext): Promise<ClientVersion | undefined> {
  if (ctx.env.MEMDIR_CLIENT_VERSION) return { version: ctx.env.MEMDIR_CLIENT_VERSION, source: 'installed' }
  const fromTranscript = await newestTranscriptVersion(getProjectTranscriptDir(ctx))
  if (fromTranscript) return { version: fromTranscript, source: 'transcript' }
  const fromPath = await installedClientVersion(ctx.env)
  return fromPath ? { version: fromPath, source: 'installed' } : undefined
}
