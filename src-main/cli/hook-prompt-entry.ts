import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { agentSocketPath, offerAgentJob } from '../host/integrations/agent-socket-client.js'
import { selectorTimeoutMs } from '../host/previews/selector-deadline.js'
import { getAppDataDir } from '../host/settings/data-dir.js'
import type { runMain } from './main.js'
import { blockingWriter, readStdin } from './std-streams.js'

type CliMain = { runMain: typeof runMain }

/**
 * `memdir hook prompt`, which Claude Code runs before every prompt. Built on its own as CommonJS
 * (scripts/build-hook-prompt.mjs → out/main/hook-prompt.cjs, required by bin/memdir.js), so a
 * prompt that a running app or `memdir watch` answers from its index starts no ES module loader
 * and loads nothing but the socket's client. Otherwise (no app, another workspace open, input it
 * refuses) the full command runs with the input already read, and asks, checks and logs as always.
 */
async function askRunningApp(text: string): Promise<boolean> {
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch {
    return false // the full command says why
  }
  const dataDir = getAppDataDir({ projectRoot: process.cwd(), env: process.env })
  const reply = await offerAgentJob(
    agentSocketPath(dataDir),
    { type: 'prompt', input },
    selectorTimeoutMs(process.env) + 2000,
  )
  if (!reply.accepted) return false
  if (reply.value) blockingWriter(1, () => process.stdout)(reply.value + '\n')
  else {
    const { logHookLine } = await import('../agents/hooks/hook-log.js')
    await logHookLine(dataDir, `prompt: nothing added by the running app (${reply.reason})`)
  }
  return true
}

async function main(): Promise<void> {
  const input = readStdin()
  if (await input.then(askRunningApp, () => false)) return
  // The ES module CLI, next to this file in out/main (electron-vite's entry `cli-main`).
  const { runMain } = (await import(pathToFileURL(join(__dirname, 'cli-main.js')).href)) as CliMain
  await runMain(process.argv.slice(2), () => input)
}

void main()
