import type { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { existsSync, readFileSync } from 'node:fs'
import type { connect, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { errnoOf, messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import type { AgentJob } from '../../../src-shared/hook-input.js'
import { isPidAlive } from '../../core/store/pid-alive.js'

/**
 * The hooks' end of the socket a running app listens on: where it is, and offering it a job. Kept
 * apart from the listener and the jobs' schemas: a prompt hook loads only this before asking.
 */

// Built-in modules a prompt hook needs only sometimes, loaded when it does. (This file is built into
// the hook's CommonJS file too, where import.meta is empty: a built-in resolves from any base path.)
const lazyRequire = createRequire(process.execPath)
type Crypto = { createHash: typeof createHash }
type Net = { connect: typeof connect }

/**
 * The local socket a running app (or `memdir watch`) listens on, so a Claude Code hook can hand it
 * work instead of starting its own process: a Unix socket in Memdir's data dir, mode 0600 (a
 * named pipe on Windows). Messages are one JSON line each way.
 */
export function agentSocketPath(dataDir: string, platform = process.platform): string {
  // Hashed only when needed: loading node:crypto costs a prompt hook a millisecond or two.
  const id = () =>
    (lazyRequire('node:crypto') as Crypto).createHash('sha256').update(dataDir).digest('hex').slice(0, 16)
  if (platform === 'win32') return `\\\\.\\pipe\\memdir-${id()}`
  const inData = join(dataDir, 'run', 'agent.sock')
  // sun_path holds ~104 bytes: a deep data dir gets a private folder in the temp dir instead.
  return Buffer.byteLength(inData) < 100 ? inData : join(tmpdir(), `memdir-${id()}`, 'agent.sock')
}

/** Where the process listening on `socketPath` writes its pid: a socket left by one that died is told apart without connecting. */
export const socketHolderPath = (socketPath: string) => `${socketPath}.pid`

/**
 * Whether the socket file was left behind by a process that is gone (it was killed, or crashed):
 * its holder's pid names no running process. A socket without a pid file (an older app) or one
 * whose holder runs, or may (another user's process, a pid reused), is worth trying.
 */
function leftByTheDead(socketPath: string): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(socketHolderPath(socketPath), 'utf8'))
  } catch {
    return false
  }
  return Number.isInteger(pid) && pid > 0 && !isPidAlive(pid)
}

export interface AgentReply {
  accepted: boolean
  reason?: string
  /** The answer to a `secret` request; to a `prompt` job, the hook output ('' for none). */
  value?: string
}

// A prompt and the memories recalled for it (a session injects at most 60 KiB) fit easily.
const MAX_LINE = 8 * 1024 * 1024

export function readLine(socket: Socket, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = ''
    const timer = setTimeout(() => done(new Error('timed out')), timeoutMs)
    const done = (err?: Error, line?: string) => {
      clearTimeout(timer)
      socket.removeAllListeners('data')
      if (err) reject(err)
      else resolve(line!)
    }
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buf += chunk
      const nl = buf.indexOf('\n')
      if (nl >= 0) done(undefined, buf.slice(0, nl))
      else if (buf.length > MAX_LINE) done(new Error('message too long'))
    })
    socket.once('error', (e) => done(e))
    socket.once('end', () => done(new Error('closed before a reply')))
  })
}

/** Offers a job to a running app; resolves not accepted (never throws) when none answers in time. */
export function offerAgentJob(
  socketPath: string,
  /** A job as the listener's schema checks it (a prompt hook's input is forwarded unchecked). */
  job: AgentJob | { type: 'prompt'; input: unknown },
  timeoutMs = 1500,
): Promise<AgentReply> {
  // No socket file, no app: said without loading node:net (most prompts when no app runs); nor
  // for one a dead app left behind (a connect that can only be refused costs node:net's load).
  if (process.platform !== 'win32' && !existsSync(socketPath))
    return Promise.resolve({ accepted: false, reason: 'no app listening (ENOENT)' })
  if (process.platform !== 'win32' && leftByTheDead(socketPath))
    return Promise.resolve({
      accepted: false,
      reason: 'no app listening (its socket was left by a process that is gone)',
    })
  const { connect } = lazyRequire('node:net') as Net
  return new Promise((resolve) => {
    const socket = connect(socketPath)
    const give = (r: AgentReply) => {
      socket.destroy()
      resolve(r)
    }
    socket.once('error', (e) =>
      give({
        accepted: false,
        reason: `no app listening (${errnoOf(e) ?? e.message})`,
      }),
    )
    socket.once('connect', () => {
      socket.write(JSON.stringify(job) + '\n')
      readLine(socket, timeoutMs).then(
        (line) => {
          try {
            const r = JSON.parse(line) as AgentReply
            give({
              accepted: r.accepted === true,
              reason: r.reason,
              ...(typeof r.value === 'string' ? { value: r.value } : {}),
            })
          } catch (e) {
            rethrowUnless(e instanceof SyntaxError, e)
            give({ accepted: false, reason: 'unreadable reply' })
          }
        },
        (e: unknown) => give({ accepted: false, reason: messageOf(e) }),
      )
    })
  })
}
