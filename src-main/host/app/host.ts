import type { Env } from '../../core/paths/context.js'
import { ActivityLog } from '../activity/activity-log.js'
import { activityHandlers } from '../activity/service.js'
import { healthHandlers } from '../health/service.js'
import { historyHandlers } from '../history/service.js'
import { serveAgentJobs } from './agent-jobs.js'
import { integrationsHandlers } from '../integrations/service.js'
import { memoriesHandlers } from '../memories/service.js'
import { previewsHandlers } from '../previews/service.js'
import { runsHandlers } from '../runs/service.js'
import { getAppDataDir } from '../settings/app-data.js'
import { ensurePrivateAppDataDir } from '../settings/data-dir.js'
import { createProjectContext } from '../settings/project.js'
import { sameProject } from '../settings/project-values.js'
import { withoutTeamTarget } from '../settings/team-target.js'
import { createSettingsService, settingsHandlers } from '../settings/service.js'
import { prepareSettings } from './startup.js'
import { teamHandlers } from '../team/service.js'
import type { Host, HostOptions } from './host-options.js'
import { createEventBus, createRouter, type Handlers } from './router.js'
import { teamMigrationCandidates } from './workspace-list.js'
import { createWorkspaces, workspaceHandlers } from './workspaces.js'

export type { Host, HostOptions }

/** The composition root: one host per app; every feature's handlers over the open workspace's services. */
export async function createHost(opts: HostOptions): Promise<Host> {
  const events = createEventBus()
  const activity = new ActivityLog((item) => events.emit({ type: 'activity', item }))
  const base = createProjectContext({ env: opts.env, cwd: opts.projectRoot ?? process.cwd() })
  ensurePrivateAppDataDir(base)
  const cipher = opts.secretCipher
  const { secrets, notices } = await prepareSettings(base, cipher, () =>
    teamMigrationCandidates(base, opts.env, opts.projectRoot),
  )
  // MEMDIR_TEAM_URL, _REPO and _TOKEN are for the project this process was started for: another
  // project the app opens (or a hook's job for one) uses its own team server, repo and token.
  const projectCtx = (cwd: string, env: Env = opts.env, flagSettingsPath?: string) => {
    const ctx = createProjectContext({ cwd, env, flagSettingsPath, secrets })
    return sameProject(ctx, base) ? ctx : { ...ctx, env: withoutTeamTarget(ctx.env) }
  }

  const workspaces = createWorkspaces({
    base,
    env: opts.env,
    activity,
    projectCtx,
    resourcesDir: opts.resourcesDir,
    teamPullIntervalMs: opts.teamPullIntervalMs,
    emit: {
      memoriesChanged: (paths) => events.emit({ type: 'memories/changed', paths }),
      teamStatus: (status) => events.emit({ type: 'team/status', status }),
      reviewChanged: () => events.emit({ type: 'review/changed' }),
      workspaceChanged: (info) => events.emit({ type: 'workspace/changed', info }),
    },
  })
  const settings = createSettingsService({
    base,
    env: opts.env,
    cipher,
    secrets,
    open: () => workspaces.get(),
    reopened: (ctx) => projectCtx(ctx.projectRoot, ctx.env, ctx.flagSettingsPath),
    apply: () => workspaces.reopen(),
    changed: (view) => events.emit({ type: 'settings/changed', settings: view }),
  })
  const ws = () => workspaces.current()
  const handlers: Handlers = {
    ...workspaceHandlers(workspaces),
    ...settingsHandlers(settings),
    ...activityHandlers(activity),
    ...memoriesHandlers(() => ws().memories),
    ...previewsHandlers(() => ws().previews),
    ...historyHandlers(() => ws().timeline),
    ...teamHandlers(() => ws().team),
    ...runsHandlers(() => ws().runs),
    ...healthHandlers(() => ws().health),
    ...integrationsHandlers(() => ws().ctx),
  }

  const agentSocket =
    opts.agentSocket === false
      ? undefined
      : await serveAgentJobs({
          dataDir: getAppDataDir(base),
          workspace: () => workspaces.get(),
          env: opts.env,
          projectCtx,
          secrets: cipher ? secrets : undefined,
          activity,
        })
  await workspaces.openFirst(opts.projectRoot)
  // Start-up notices reach the feed once the first workspace has attached it.
  for (const notice of notices) activity.add(notice)

  return {
    call: createRouter(handlers),
    onEvent: events.on,
    async close(drainMs?: number) {
      await agentSocket?.close()
      await workspaces.close(drainMs)
      await activity.close()
      events.clear()
    },
  }
}
