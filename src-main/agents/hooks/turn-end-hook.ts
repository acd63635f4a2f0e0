import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { TurnEndHook } from '../../../src-shared/hook-input.js'
import { clientMemoryEnv } from '../../../src-shared/client-memory-env.js'
import type { Env } from '../../core/paths/context.js'
import { getAutoMemoryEnablement } from '../../core/paths/enablement.js'
import { agentSocketPath, offerAgentJob } from '../../host/integrations/agent-socket.js'
import { getAppDataDir } from '../../host/settings/app-data.js'
import { loadEffectiveConfig } from '../../host/settings/config.js'
import { createProjectContext } from '../../host/settings/project.js'

export interface TurnEndOutcome {
  handedTo?: 'app' | 'background'
  skipped?: string
  reason?: string
}

/** Starts `memdir hook extract …` detached from this process (and from Claude Code). */
export function spawnBackgroundExtraction(input: TurnEndHook, env: Env): void {
  const script = process.argv[1]
  if (!script) throw new Error('cannot tell which memdir script is running')
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      script,
      'hook',
      'extract',
      '--transcript',
      input.transcript_path,
      '--session',
      input.session_id,
      '--cwd',
      input.cwd,
    ],
    { detached: true, stdio: 'ignore', env: env as NodeJS.ProcessEnv, cwd: input.cwd },
  )
  child.unref()
}

/**
 * Stop / SessionEnd: queue an extraction of the session. A running app (or `memdir watch`) takes
 * it over its socket; otherwise a detached background run does it. Returns at once either way.
 */
export async function runTurnEndHook(
  input: TurnEndHook,
  env: Env,
  startBackground: (input: TurnEndHook, env: Env) => void = spawnBackgroundExtraction,
): Promise<TurnEndOutcome> {
  // No transcript (a SessionEnd after `claude mcp list`): nothing to extract, so no process either.
  if (!input.transcript_path || !existsSync(input.transcript_path))
    return { skipped: `no transcript to extract (${input.transcript_path || 'none given'})` }
  const ctx = createProjectContext({ cwd: input.cwd, env, scan: 'inline' })
  const auto = getAutoMemoryEnablement(ctx)
  if (!auto.enabled) return { skipped: `auto memory is off: ${auto.reason}` }
  if (!loadEffectiveConfig(ctx).extractionEnabled.value) return { skipped: 'extraction is switched off' }
  const reply = await offerAgentJob(agentSocketPath(getAppDataDir(ctx)), {
    type: 'turn-ended',
    projectRoot: ctx.projectRoot,
    sessionId: input.session_id,
    transcriptPath: input.transcript_path,
    event: input.hook_event_name,
    env: clientMemoryEnv(env),
  })
  if (reply.accepted) return { handedTo: 'app' }
  startBackground(input, env)
  return { handedTo: 'background', reason: reply.reason }
}
