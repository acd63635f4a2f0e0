import { errnoOf, messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import { createHash } from 'node:crypto'
import { chmod, mkdir, unlink } from 'node:fs/promises'
import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { AgentJobSchema, type AgentJob } from '../../../src-shared/hook-input.js'
import { check } from '../../../src-shared/schema-common.js'

/**
 * The local socket a running app (or `memdir watch`) listens on, so a Claude Code hook can hand it
 * work instead of starting its own process: a Unix socket in Memdir's data dir, mode 0600 (a
 * named pipe on Windows). Messages are one JSON line each way.
 */
export function agentSocketPath(dataDir: string, platform = process.platform): string {
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 16)
  if (platform === 'win32') return `\\\\.\\pipe\\memdir-${id}`
  const inData = join(dataDir, 'run', 'agent.sock')
  // sun_path holds ~104 bytes: a deep data dir gets a private folder in the temp dir instead.
  return Buffer.byteLength(inData) < 100 ? inData : join(tmpdir(), `memdir-${id}`, 'agent.sock')
}

export type TurnEndedJob = Extract<AgentJob, { type: 'turn-ended' }>
export type SecretRequest = Extract<AgentJob, { type: 'secret' }>
export type PromptJob = Extract<AgentJob, { type: 'prompt' }>

export interface AgentReply {
  accepted: boolean
  reason?: string
  /** The answer to a `secret` request; to a `prompt` job, the hook output ('' for none). */
  value?: string
}

/** What a listener does with each kind of job; a kind it has no handler for is refused. */
export interface AgentJobHandlers {
  turnEnded: (job: TurnEndedJob) => Promise<AgentReply>
  /** Recall for a prompt hook, from the listener's own index. */
  prompt?: (job: PromptJob) => Promise<AgentReply>
  /** The desktop app answers the CLI's secret requests (the socket is the user's only). */
  secret?: (request: SecretRequest) => string | undefined
}

// A prompt and the memories recalled for it (a session injects at most 60 KiB) fit easily.
const MAX_LINE = 8 * 1024 * 1024

function readLine(socket: Socket, timeoutMs: number): Promise<string> {
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
export function offerAgentJob(socketPath: string, job: AgentJob, timeoutMs = 1500): Promise<AgentReply> {
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

export interface AgentSocketServer {
  path: string
  close: () => Promise<void>
}

/**
 * Listens for hook jobs. A socket file left by a crashed app is replaced; one a live app still
 * answers on is left to it (undefined is returned).
 */
export async function listenForAgentJobs(
  dataDir: string,
  handlers: AgentJobHandlers,
): Promise<AgentSocketServer | undefined> {
  const path = agentSocketPath(dataDir)
  if (process.platform !== 'win32') {
    // The socket's folder is the user's only: nobody else can even reach the socket.
    await mkdir(dirname(path), { recursive: true, mode: 0o700 })
    await chmod(dirname(path), 0o700)
  }
  const server = createServer((socket) => {
    // Long enough for a prompt job's model selector (its own deadline is shorter).
    socket.setTimeout(15_000, () => socket.destroy())
    readLine(socket, 5000).then(
      async (line) => {
        let reply: AgentReply
        try {
          const parsed = check(AgentJobSchema, JSON.parse(line))
          if (!parsed.ok) reply = { accepted: false, reason: `bad job: ${parsed.message}` }
          else if (parsed.value.type === 'ping') reply = { accepted: true }
          else if (parsed.value.type === 'secret') {
            const value = handlers.secret?.(parsed.value)
            reply = value ? { accepted: true, value } : { accepted: false, reason: 'not kept here' }
          } else if (parsed.value.type === 'prompt')
            reply = handlers.prompt
              ? await handlers.prompt(parsed.value)
              : { accepted: false, reason: 'this listener does not recall' }
          else reply = await handlers.turnEnded(parsed.value)
        } catch (e) {
          reply = { accepted: false, reason: messageOf(e) }
        }
        socket.end(JSON.stringify(reply) + '\n')
      },
      () => socket.destroy(),
    )
  })
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(path, () => {
        server.off('error', reject)
        resolve()
      })
    })
  try {
    await listen()
  } catch (e) {
    if (errnoOf(e) !== 'EADDRINUSE' || process.platform === 'win32') throw e
    const alive = await offerAgentJob(path, { type: 'ping' }, 500)
    if (alive.accepted) return undefined
    await unlink(path)
    await listen()
  }
  if (process.platform !== 'win32') await chmod(path, 0o600)
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
      }),
  }
}
