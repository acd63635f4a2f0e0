import { isFsError, rethrowUnless } from '../../../src-shared/errors.js'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * The Claude Code client process a hook runs under, and where a forked session came from.
 *
 * `claude --resume <id> --fork-session` (or `--continue --fork-session`) starts a new session whose
 * context holds the old one's messages, and with them whatever a prompt hook added there; but its
 * transcript is written only after its first prompt's hook has run, and the hook's input names
 * only the new session. The client's own command line, an ancestor of the hook's process, says
 * which session it copied. And a session the client took up again (`--resume`) in a new process
 * has a context rebuilt from its transcript, which the client process's identity tells apart from
 * the next prompt of the same run.
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
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return false
  }
}

/** The most recently written transcript in `dir` other than `self` (what `--continue` resumes). */
function newestTranscriptBesides(dir: string, self: string): string | undefined {
  let best: { path: string; mtime: number } | undefined
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    return undefined
  }
  for (const name of names) {
    const path = join(dir, name)
    if (!name.endsWith('.jsonl') || path === self || !SESSION_ID.test(name.slice(0, -'.jsonl'.length)))
      continue
    try {
      const s = statSync(path)
      if (s.isFile() && (!best || s.mtimeMs > best.mtime)) best = { path, mtime: s.mtimeMs }
    } catch (e) {
      rethrowUnless(isFsError(e), e) // gone meanwhile
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

/** A process above the hook's: its pid, command line and (Linux) start time, which with the pid names one process. */
export interface Ancestor {
  pid: number
  argv: string[]
  started?: string
  /** Linux: the name the kernel keeps for it (the file it runs, at most 15 bytes). */
  comm?: string
}

/** From Linux's /proc: cheap (two small reads a process). */
function procAncestors(from: number, depth: number): Ancestor[] {
  const out: Ancestor[] = []
  for (let pid = from; out.length < depth && pid > 1;) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // After the command name in parentheses: state, ppid, … and the start time, field 22.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1)
      out.push({
        pid,
        argv,
        started: fields[19],
        comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      })
      pid = Number(fields[1])
    } catch (e) {
      rethrowUnless(isFsError(e), e)
      break // gone, or not ours to read
    }
  }
  return out
}

/**
 * From one `ps` (macOS and the BSDs), its arguments split at spaces, which is enough to find flags
 * and ids. A process of its own, and child_process costs a hook ~6 ms to load: only when asked.
 */
async function psAncestors(from: number, depth: number): Promise<Ancestor[]> {
  const { execFileSync } = await import('node:child_process')
  const table = new Map<number, { ppid: number; argv: string[] }>()
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,command='], {
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    for (const line of out.split('\n')) {
      const [pid, ppid, ...argv] = line.trim().split(/\s+/)
      if (pid && ppid) table.set(Number(pid), { ppid: Number(ppid), argv })
    }
  } catch {
    return [] // no `ps`, a timeout, an exit code: the ancestors are unknown, as on Windows
  }
  const found: Ancestor[] = []
  for (let pid = from; found.length < depth && pid > 1;) {
    const e = table.get(pid)
    if (!e) break
    found.push({ pid, argv: e.argv })
    pid = e.ppid
  }
  return found
}

/**
 * The processes above this one, nearest first, at most `depth` of them (the client runs a hook
 * through a shell). None on Windows.
 */
export async function ancestorProcesses(depth = 4, from = process.ppid): Promise<Ancestor[]> {
  if (process.platform === 'win32') return []
  return process.platform === 'linux' ? procAncestors(from, depth) : psAncestors(from, depth)
}

/**
 * Whether a process is Claude Code: the native build (`claude`, or a file under
 * `claude/versions/`), or the Node build, which names its process `claude`.
 */
const isClaudeCode = (a: Ancestor) =>
  a.comm === 'claude' ||
  basename(a.argv[0] ?? '') === 'claude' ||
  /[\\/]claude[\\/]versions[\\/]/.test(a.argv[0] ?? '') ||
  a.argv.some((arg) => /@anthropic-ai[\\/]claude-code/.test(arg))

/**
 * The Claude Code process that runs the hook, as one process (`<pid>@<start time>`). Only where
 * the start time is known (Linux), so a reused pid is never taken for it; and only an ancestor
 * that is Claude Code: a wrapper between (`npx memdir`) is a new process at every prompt.
 */
export function clientProcessOf(ancestors: readonly Ancestor[]): string | undefined {
  const client = ancestors.find(isClaudeCode)
  return client?.started ? `${client.pid}@${client.started}` : undefined
}
