import { messageOf } from '../../src-shared/errors.js'
import { hookDataDir } from '../host/settings/data-dir.js'
import { askRunningApp } from './commands/ask-running-app.js'
import type { promptHook } from './commands/hook-prompt.js'
import { blockingWriter, endNow, readStdin } from './std-streams.js'
import { hookWorkingDir } from './working-dir.js'
import { withSessionCwd } from '../agents/hooks/session-start-dir.js'
import { withClientProcess } from '../agents/hooks/client-process.js'

const stdout = blockingWriter(1, () => process.stdout)

/** What bin/memdir.js hands the first step: both are loaded only when needed. */
export interface HookPromptHandOver {
  /** The offline recall's file, loaded. */
  offline: () => { promptHook: typeof promptHook }
  /** The ES module CLI's `memdir hook prompt`, with the input already read. */
  fullCli: (stdin: () => Promise<string>) => Promise<void>
}

/** A line in the hooks' log: loaded when needed (it loads fs/promises, ~3 ms of a prompt the app answers). */
async function log(dataDir: string, line: string): Promise<void> {
  const { logHookLine } = await import('../agents/hooks/hook-log.js')
  await logHookLine(dataDir, `prompt: ${line}`)
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/**
 * `memdir hook prompt`, which Claude Code runs before every prompt. Built on its own as CommonJS
 * (scripts/build-hook-prompt.mjs → out/main/hook-prompt.cjs, loaded by bin/memdir.js), so it
 * starts no ES module loader: a running app or `memdir watch` answers from its index, and nothing
 * but the socket's client is loaded; otherwise the offline recall, a second CommonJS file
 * (out/main/hook-offline.cjs: commands/hook-prompt.ts, which the full command runs too). Input that
 * is not JSON goes to the full command, which says why. bin/memdir.js hands over both: neither file
 * has an `import()`, so each can run from V8's code cache, where Node 20 cannot load a module.
 */
export async function hookPrompt({ offline, fullCli }: HookPromptHandOver): Promise<void> {
  const input = readStdin()
  const raw = await input.then(parsed, () => ({ ok: false }) as const)
  if (!raw.ok) return fullCli(() => input)
  const dataDir = hookDataDir({ projectRoot: hookWorkingDir(), env: process.env }, 'prompt', (text) =>
    process.stderr.write(text),
  )
  if (dataDir === undefined) return endNow(0)
  // The session's project, not where its shell has moved to since (a `cd` into a nested repo).
  // And what only this process can see of the client that runs it (agents/hooks/client-process.ts).
  const hookInput = await withClientProcess(await withSessionCwd(raw.value))
  const logLine = (line: string) => log(dataDir, line)
  if (!(await askRunningApp(hookInput, dataDir, process.env, stdout, logLine)))
    try {
      await offline().promptHook({ stdout, env: process.env }, hookInput, dataDir, logLine, true)
    } catch (e) {
      await logLine(`failed: ${messageOf(e)}`)
    }
  // A hook never fails a prompt: it exits 0 whatever happened (what went wrong is in the log).
  endNow(0)
}
