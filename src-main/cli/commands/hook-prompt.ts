import { UserPromptSubmitInput } from '../../../src-shared/hook-input.js'
import { check } from '../../../src-shared/schema-common.js'
import type { CliIO } from '../io.js'

/**
 * `memdir hook prompt` once its input is parsed: a running app (or `memdir watch`) of this project
 * answers from its index; otherwise this process recalls offline. `appAsked`: the caller has asked
 * the app already (the CommonJS first step, out/main/hook-prompt.cjs, which runs this in the same
 * process when no app answered). Throws what the caller logs; never prints an error.
 */
export async function promptHook(
  io: Pick<CliIO, 'stdout' | 'env'>,
  raw: unknown,
  dataDir: string,
  log: (line: string) => Promise<void>,
  appAsked = false,
): Promise<void> {
  const input = check(UserPromptSubmitInput, raw)
  if (!input.ok) throw new Error(`unexpected hook input: ${input.message}`)
  if (!appAsked) {
    const { askRunningApp } = await import('./ask-running-app.js')
    if (await askRunningApp(input.value, dataDir, io.env, io.stdout, log)) return
  }
  const { runPromptHook } = await import('../../agents/hooks/prompt-hook.js')
  const r = await runPromptHook(input.value, io.env)
  if (r.output) io.stdout(JSON.stringify(r.output) + '\n')
  else await log(`nothing added (${r.skipped})`)
}
