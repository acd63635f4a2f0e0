import { agentSocketPath, offerAgentJob } from '../../host/integrations/agent-socket-client.js'
import { selectorTimeoutMs } from '../../host/previews/selector-deadline.js'
import type { Env } from '../../core/paths/context.js'

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
    { type: 'prompt', input },
    selectorTimeoutMs(env) + 2000,
  )
  if (!served.accepted) return false
  if (served.value) stdout(served.value + '\n')
  else await log(`nothing added by the running app (${served.reason})`)
  return true
}
