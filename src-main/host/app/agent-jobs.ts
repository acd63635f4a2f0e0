import { messageOf } from '../../../src-shared/errors.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { Env, ProjectContext } from '../../core/paths/context.js'
import { type ClientMemoryEnvValues, withClientMemoryEnv } from '../../../src-shared/client-memory-env.js'
import type { ActivityLog } from '../activity/activity-log.js'
import type { Workspace } from './workspace.js'
import type { HeldSecrets } from '../settings/secrets.js'
import { listenForAgentJobs } from '../integrations/agent-socket.js'
import { cliJobHandlers } from './cli-answers.js'
import { promptJobReply } from '../previews/prompt-recall.js'

/**
 * The app's end of the hooks' socket: Claude Code's Stop hook hands finished turns of the open
 * workspace to this app, its prompt hook and `memdir list` / `memdir recall` are answered from the
 * app's index, and (only the desktop app, which holds the keychain) the CLI asks for the secrets it
 * keeps. When the socket cannot be opened, hooks run their extraction and recall themselves.
 */
export function serveAgentJobs(deps: {
  dataDir: string
  workspace: () => Workspace | undefined
  /** The app's own environment. */
  env: Env
  projectCtx: (cwd: string, env?: Env) => ProjectContext
  secrets?: HeldSecrets
  activity: ActivityLog
}) {
  // A hook's job is answered in the client's environment (client-memory-env.ts): the memory dir
  // and auto-memory switches the session has, not the ones this app was started with.
  const jobCtx = (cwd: string, env: ClientMemoryEnvValues | undefined) =>
    deps.projectCtx(cwd, withClientMemoryEnv(deps.env, env))
  const open = (ctx: ProjectContext) => {
    const ws = deps.workspace()
    return ws && getAutoMemPath(ctx) === ws.memoryDir ? ws : undefined
  }
  const elsewhere = { accepted: false, reason: 'the app has another workspace open' }
  return listenForAgentJobs(deps.dataDir, {
    turnEnded: async (job) => {
      const ws = open(jobCtx(job.projectRoot, job.env))
      if (!ws) return elsewhere
      await ws.runs.turnEnded(job.transcriptPath)
      return { accepted: true }
    },
    prompt: async (job) => {
      const ctx = jobCtx(job.input.cwd, job.env)
      const ws = open(ctx)
      if (!ws) return elsewhere
      return promptJobReply(await ws.recallForPrompt(job.input, ctx.env))
    },
    ...cliJobHandlers(() => deps.workspace()?.held((cwd) => deps.projectCtx(cwd).projectRoot), elsewhere),
    secret: deps.secrets
      ? (req) =>
          req.name === 'apiKey'
            ? deps.secrets!.apiKey
            : req.pair
              ? deps.secrets!.teamTokens[req.pair]
              : undefined
      : undefined,
  }).catch((e: unknown) => {
    deps.activity.add({
      kind: 'extraction',
      level: 'warning',
      title: 'Claude Code hooks cannot reach this app',
      detail: `${messageOf(e)} — hook-triggered extraction runs in the background instead.`,
      files: [],
    })
    return undefined
  })
}
