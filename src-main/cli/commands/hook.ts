import { TurnEndInput } from '../../../src-shared/hook-input.js'
import { messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import { check } from '../../../src-shared/schema-common.js'
import { logHookLine } from '../../agents/hooks/hook-log.js'
import { withSessionCwd } from '../../agents/hooks/session-start-dir.js'
import { withClientProcess } from '../../agents/hooks/client-process.js'
import { ensurePrivateAppDataDir, hookDataDir } from '../../host/settings/data-dir.js'
import { createProjectContext } from '../../host/settings/project.js'
import { type CliIO, UsageError } from '../io.js'
import { promptHook } from './hook-prompt.js'

export interface HookJobArgs {
  transcript?: string
  session?: string
  cwd?: string
}

async function readHookInput(io: CliIO): Promise<unknown> {
  if (!io.stdin) throw new Error('no standard input')
  const text = await io.stdin()
  try {
    return JSON.parse(text)
  } catch (e) {
    rethrowUnless(e instanceof SyntaxError, e)
    throw new Error(`the hook input is not JSON: ${JSON.stringify(text.slice(0, 80))}`)
  }
}

/**
 * `memdir hook prompt|stop` (what the installed Claude Code hooks run) and `memdir hook extract`
 * (the background run `stop` starts). prompt and stop never fail Claude Code: any problem exits 0
 * with nothing printed and a line in `<data dir>/logs/hooks.log`.
 */
export async function hookCommand(io: CliIO, event: string | undefined, job: HookJobArgs): Promise<number> {
  // The background extraction may fail; prompt and stop never fail Claude Code.
  const dataDir =
    event === 'extract'
      ? ensurePrivateAppDataDir(createProjectContext({ cwd: io.cwd, env: io.env }))
      : hookDataDir({ projectRoot: io.cwd, env: io.env }, String(event), io.stderr)
  if (dataDir === undefined) return 0
  const log = (line: string) => logHookLine(dataDir, `${event}: ${line}`)
  if (event === 'extract') {
    if (!job.transcript || !job.session)
      throw new UsageError('hook extract needs --transcript FILE --session ID')
    const { DEFAULT_EXTRACT_JOB_TIMEOUT_MS, extractionLeash, runExtractionJob } =
      await import('../../agents/hooks/extraction-job.js')
    const { getAutoMemPath } = await import('../../core/paths/auto-mem-path.js')
    const lines: Promise<void>[] = []
    const ctx = createProjectContext({ cwd: job.cwd ?? io.cwd, env: io.env, scan: 'inline' })
    // A detached run never outlives its purpose: done, out of time, or its memory dir gone.
    const leash = extractionLeash(
      getAutoMemPath(ctx),
      job.transcript,
      Number(io.env.MEMDIR_HOOK_EXTRACT_TIMEOUT_MS) || DEFAULT_EXTRACT_JOB_TIMEOUT_MS,
    )
    try {
      const { withCliSecrets } = await import('../../host/integrations/cli-secrets.js')
      const work = withCliSecrets(ctx).then((c) =>
        runExtractionJob(c, job.transcript!, job.session!, (l) => lines.push(log(l))),
      )
      const stop = await Promise.race([work.then(() => undefined), leash.stopped])
      if (stop) {
        lines.push(log(`stopped: ${stop}`))
        await Promise.all(lines)
        return 1
      }
    } catch (e) {
      lines.push(log(`failed: ${messageOf(e)}`))
      await Promise.all(lines)
      return 1
    } finally {
      leash.release()
    }
    await Promise.all(lines)
    return 0
  }
  if (event !== 'prompt' && event !== 'stop') throw new UsageError('usage: memdir hook prompt|stop')
  try {
    // The session's project, not where its shell has moved to since (a `cd` into a nested repo).
    const raw = await withSessionCwd(await readHookInput(io))
    if (event === 'prompt') {
      await promptHook(io, await withClientProcess(raw), dataDir, log)
    } else {
      const input = check(TurnEndInput, raw)
      if (!input.ok) throw new Error(`unexpected hook input: ${input.message}`)
      const { runTurnEndHook } = await import('../../agents/hooks/turn-end-hook.js')
      const r = await runTurnEndHook(input.value, io.env)
      await log(
        r.skipped
          ? `skipped (${r.skipped})`
          : `extraction of ${input.value.session_id} handed to ${r.handedTo}${r.reason ? ` (${r.reason})` : ''}`,
      )
    }
  } catch (e) {
    await log(`failed: ${messageOf(e)}`)
  }
  return 0
}
