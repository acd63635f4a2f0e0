import { agentSocketPath, offerAgentJob } from '../../host/integrations/agent-socket-client.js'
import { selectorTimeoutMs } from '../../host/previews/selector-deadline.js'
import type { Env } from '../../core/paths/context.js'
import { rethrowUnless } from '../../../src-shared/errors.js'
import type { AgentJob } from '../../../src-shared/hook-input.js'
import { clientMemoryEnv } from '../../../src-shared/client-memory-env.js'

/**
 * Offers a prompt hook's input to a running app (or `memdir watch`) of this data dir, which answers
 * from its own index: its output is printed, or why it added nothing is logged. False when none
 * took it (the hook then recalls offline).
 */
export async function askRunningApp(
  input: unknown,
  dataDir: string,
  env: Env,
  stdout: (text: string) => void,
  log: (line: string) => Promise<void>,
): Promise<boolean> {
  const served = await offerAgentJob(
    agentSocketPath(dataDir),
    // The client's environment decides the session's memory dir and whether auto memory is on:
    // the app, started without it, reads those from here.
    { type: 'prompt', input, env: clientMemoryEnv(env) },
    selectorTimeoutMs(env) + 2000,
  )
  if (!served.accepted) return false
  if (served.value) stdout(served.value + '\n')
  else await log(`nothing added by the running app (${served.reason})`)
  return true
}

/**
 * Asks a running app (or `memdir watch`) of this data dir for what a CLI command prints, as JSON;
 * undefined when none answers for this memory dir, and the command then does the work itself.
 * The app answers from its watcher-fed index, so the command neither stats nor reads every file.
 */
export async function answerFromRunningApp<T>(
  job: Extract<AgentJob, { type: 'list' | 'recall' }>,
  dataDir: string,
): Promise<T | undefined> {
  const served = await offerAgentJob(agentSocketPath(dataDir), job, APP_ANSWER_MS)
  if (!served.accepted || served.value === undefined) return undefined
  try {
    return JSON.parse(served.value) as T
  } catch (e) {
    rethrowUnless(e instanceof SyntaxError, e)
    return undefined
  }
}

/** An app opening a large workspace may still be reading it; past this the command reads it itself. */
const APP_ANSWER_MS = 5000
