import { messageOf } from '../../src-shared/errors.js'
import { logHookLine } from '../agents/hooks/hook-log.js'
import { agentSocketPath, offerAgentJob } from '../host/integrations/agent-socket-client.js'
import { selectorTimeoutMs } from '../host/previews/selector-deadline.js'
import { getAppDataDir } from '../host/settings/data-dir.js'
import { promptHook } from './commands/hook-prompt.js'
import { blockingWriter, readStdin } from './std-streams.js'

const stdout = blockingWriter(1, () => process.stdout)

/**
 * `memdir hook prompt`, which Claude Code runs before every prompt. Built on its own as CommonJS
 * (scripts/build-hook-prompt.mjs → out/main/hook-prompt.cjs, required by bin/memdir.js), so it
 * starts no ES module loader: a running app or `memdir watch` answers from its index, loading
 * nothing here but the socket's client; otherwise the offline recall runs in this file too, as the
 * full command would (commands/hook-prompt.ts, shared with it). Input that is not JSON goes to the
 * full command, which says why: bin/memdir.js hands over `fullCli` (this file has no `import()`, so
 * it can run from V8's code cache, where Node 20 cannot load an ES module).
 */
async function askRunningApp(input: unknown, dataDir: string): Promise<boolean> {
  const reply = await offerAgentJob(
    agentSocketPath(dataDir),
    { type: 'prompt', input },
    selectorTimeoutMs(process.env) + 2000,
  )
  if (!reply.accepted) return false
  if (reply.value) stdout(reply.value + '\n')
  else await logHookLine(dataDir, `prompt: nothing added by the running app (${reply.reason})`)
  return true
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

export async function hookPrompt(fullCli: (stdin: () => Promise<string>) => Promise<void>): Promise<void> {
  const input = readStdin()
  const raw = await input.then(parsed, () => ({ ok: false }) as const)
  if (!raw.ok) return fullCli(() => input)
  const dataDir = getAppDataDir({ projectRoot: process.cwd(), env: process.env })
  if (await askRunningApp(raw.value, dataDir)) return
  const log = (line: string) => logHookLine(dataDir, `prompt: ${line}`)
  try {
    await promptHook({ stdout, env: process.env }, raw.value, dataDir, log, true)
  } catch (e) {
    await log(`failed: ${messageOf(e)}`)
  }
}
