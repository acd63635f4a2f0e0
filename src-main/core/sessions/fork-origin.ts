import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * Where a forked Claude Code session came from. `claude --resume <id> --fork-session` (or
 * `--continue --fork-session`) starts a new session whose context holds the old one's messages,
 * and with them whatever a prompt hook added there; but its transcript is written only after its
 * first prompt's hook has run, and the hook's input names only the new session. The client's own
 * command line, an ancestor of the hook's process, says which session it copied.
 */

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The value of `--resume <v>`, `--resume=<v>` or `-r <v>` in `argv`, if given. */
function resumedId(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a.startsWith('--resume=')) return a.slice('--resume='.length)
    if (a === '--resume' || a === '-r') return argv[i + 1]
  }
  return undefined
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The most recently written transcript in `dir` other than `self` (what `--continue` resumes). */
function newestTranscriptBesides(dir: string, self: string): string | undefined {
  let best: { path: string; mtime: number } | undefined
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return undefined
  }
  for (const name of names) {
    const path = join(dir, name)
    if (!name.endsWith('.jsonl') || path === self || !SESSION_ID.test(name.slice(0, -'.jsonl'.length)))
      continue
    try {
      const s = statSync(path)
      if (s.isFile() && (!best || s.mtimeMs > best.mtime)) best = { path, mtime: s.mtimeMs }
    } catch {
      /* gone meanwhile */
    }
  }
  return best?.path
}

/**
 * The transcript of the session `transcriptPath`'s session was forked from, from the command lines
 * of the client (`commandLines`, nearest ancestor first): a transcript in the same project dir, or
 * undefined when no ancestor is a client started with `--fork-session`.
 */
export function forkOrigin(
  transcriptPath: string,
  commandLines: readonly (readonly string[])[],
): string | undefined {
  const client = commandLines.find((argv) => argv.includes('--fork-session'))
  if (!client) return undefined
  const dir = dirname(transcriptPath)
  const id = resumedId(client)
  if (id !== undefined) {
    const origin = join(dir, `${id}.jsonl`)
    return SESSION_ID.test(id) && origin !== transcriptPath && isFile(origin) ? origin : undefined
  }
  return client.includes('--continue') || client.includes('-c')
    ? newestTranscriptBesides(dir, transcriptPath)
    : undefined
}

/** The parent of process `pid` and its command line, from Linux's /proc; undefined elsewhere or when gone. */
function procEntry(pid: number): { ppid: number; argv: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1)
    return { ppid, argv }
  } catch {
    return undefined
  }
}

/**
 * The same from `ps` (macOS and the BSDs): the arguments split at spaces, which is enough to find
 * flags and ids. child_process is loaded only here: it costs a prompt hook ~6 ms to load.
 */
async function psEntry(pid: number): Promise<{ ppid: number; argv: string[] } | undefined> {
  const { execFileSync } = await import('node:child_process')
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,command=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
    const [ppid, ...argv] = out.split(/\s+/)
    return ppid ? { ppid: Number(ppid), argv } : undefined
  } catch {
    return undefined
  }
}

/**
 * The command lines of this process's ancestors, nearest first, at most `depth` of them (the client
 * runs a hook through a shell, so it is the second). None on Windows.
 */
export async function ancestorCommandLines(depth = 4, from = process.ppid): Promise<string[][]> {
  if (process.platform === 'win32') return []
  const entry = process.platform === 'linux' ? procEntry : psEntry
  const lines: string[][] = []
  for (let pid = from; lines.length < depth && pid > 1;) {
    const e = await entry(pid)
    if (!e) break
    lines.push(e.argv)
    pid = e.ppid
  }
  return lines
}
