import { messageOf } from '../../../src-shared/errors.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import type { ActivityLog } from '../activity/activity-log.js'
import type { Workspace } from './workspace.js'
import type { HeldSecrets } from '../settings/secrets.js'
import { listenForAgentJobs } from '../integrations/agent-socket.js'

/**
 * The app's end of the hooks' socket: Claude Code's Stop hook hands finished turns of the open
 * workspace to this app, and (only the desktop app, which holds the keychain) the CLI asks for
 * the secrets it keeps. When the socket cannot be opened, hooks run their extraction themselves.
 */
export function serveAgentJobs(deps: {
  dataDir: string
  workspace: () => Workspace | undefined
  projectCtx: (cwd: string) => ProjectContext
  secrets?: HeldSecrets
  activity: ActivityLog
}) {
  return listenForAgentJobs(
    deps.dataDir,
    async (job) => {
      const ws = deps.workspace()
      if (!ws || getAutoMemPath(deps.projectCtx(job.projectRoot)) !== ws.memoryDir)
        return { accepted: false, reason: 'the app has another workspace open' }
      await ws.runs.turnEnded(job.transcriptPath)
      return { accepted: true }
    },
    deps.secrets
      ? (req) =>
          req.name === 'apiKey'
            ? deps.secrets!.apiKey
            : req.pair
              ? deps.secrets!.teamTokens[req.pair]
              : undefined
      : undefined,
  ).catch((e: unknown) => {
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
