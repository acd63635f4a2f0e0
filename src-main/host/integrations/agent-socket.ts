import { errnoOf, ignoreFsError, messageOf } from '../../../src-shared/errors.js'
import { chmod, mkdir, unlink } from 'node:fs/promises'
import { createServer } from 'node:net'
import { dirname } from 'node:path'
import { writeFileAtomic } from '../../core/store/atomic-write.js'
import {
  agentSocketPath,
  type AgentReply,
  offerAgentJob,
  readLine,
  socketHolderPath,
} from './agent-socket-client.js'
import { AgentJobSchema, type AgentJob } from '../../../src-shared/hook-input.js'
import { check } from '../../../src-shared/schema-common.js'

export { agentSocketPath, offerAgentJob, type AgentReply } from './agent-socket-client.js'

export type TurnEndedJob = Extract<AgentJob, { type: 'turn-ended' }>
export type SecretRequest = Extract<AgentJob, { type: 'secret' }>
export type PromptJob = Extract<AgentJob, { type: 'prompt' }>
export type ListJob = Extract<AgentJob, { type: 'list' }>
export type RecallJob = Extract<AgentJob, { type: 'recall' }>

/** What a listener does with each kind of job; a kind it has no handler for is refused. */
export interface AgentJobHandlers {
  turnEnded: (job: TurnEndedJob) => Promise<AgentReply>
  /** Recall for a prompt hook, from the listener's own index. */
  prompt?: (job: PromptJob) => Promise<AgentReply>
  /** `memdir list` and `memdir recall` (offline), answered as JSON from the listener's own index. */
  list?: (job: ListJob) => Promise<AgentReply>
  recall?: (job: RecallJob) => Promise<AgentReply>
  /** The desktop app answers the CLI's secret requests (the socket is the user's only). */
  secret?: (request: SecretRequest) => string | undefined
}

async function answerJob(job: AgentJob, handlers: AgentJobHandlers): Promise<AgentReply> {
  const refused = (what: string): AgentReply => ({
    accepted: false,
    reason: `this listener does not ${what}`,
  })
  switch (job.type) {
    case 'ping':
      return { accepted: true }
    case 'secret': {
      const value = handlers.secret?.(job)
      return value ? { accepted: true, value } : { accepted: false, reason: 'not kept here' }
    }
    case 'prompt':
      return handlers.prompt ? handlers.prompt(job) : refused('recall')
    case 'list':
      return handlers.list ? handlers.list(job) : refused('list')
    case 'recall':
      return handlers.recall ? handlers.recall(job) : refused('recall')
    case 'turn-ended':
      return handlers.turnEnded(job)
  }
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
          reply = parsed.ok
            ? await answerJob(parsed.value, handlers)
            : { accepted: false, reason: `bad job: ${parsed.message}` }
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
  if (process.platform !== 'win32') {
    await chmod(path, 0o600)
    await writeFileAtomic(socketHolderPath(path), String(process.pid), { durable: false })
  }
  return {
    path,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (process.platform !== 'win32') await unlink(socketHolderPath(path)).catch(ignoreFsError)
    },
  }
}
