import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { MemdirError } from '../../../src-shared/errors.js'
import type { TeamStatus, WorkspaceInfo, WorkspaceSummary } from '../../../src-shared/types.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { Env, ProjectContext } from '../../core/paths/context.js'
import { checkMemoryDirUsable } from '../../core/paths/memory-dir-check.js'
import type { ActivityLog } from '../activity/activity-log.js'
import { getAppDataDir } from '../settings/app-data.js'
import { loadEffectiveConfig } from '../settings/config.js'
import { createModelRuntime } from '../settings/model-runtime.js'
import { prepareDemo } from './demo.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import { Workspace } from './workspace.js'
import { countMemories, dirKey, discoverWorkspaces, rememberRecent, rememberRoot } from './workspace-list.js'

export interface WorkspacesDeps {
  base: ProjectContext
  env: Env
  activity: ActivityLog
  /** A project's context with this host's secrets. */
  projectCtx: (cwd: string, env?: Env, flagSettingsPath?: string) => ProjectContext
  resourcesDir?: string
  teamPullIntervalMs?: number
  emit: {
    memoriesChanged: (paths: string[]) => void
    teamStatus: (s: TeamStatus) => void
    reviewChanged: () => void
    workspaceChanged: (info: WorkspaceInfo) => void
  }
}

/** A project is a folder: a path that is missing, or a file, is refused with what it is. */
function checkFolder(root: string, asked: string): void {
  const st = statSync(root, { throwIfNoEntry: false })
  if (!st) throw new MemdirError('NOT_FOUND', `No such folder: ${asked}`)
  if (!st.isDirectory())
    throw new MemdirError('NOT_FOUND', `Not a folder: ${asked} is a file; pick the folder it is in.`)
}

/** Which workspace is open, and switching: a folder, a listed memory dir whose folder the user picks, the demo. */
export function createWorkspaces(deps: WorkspacesDeps) {
  let workspace: Workspace | undefined

  async function open(ctx: ProjectContext, isDemo: boolean): Promise<WorkspaceInfo> {
    // Refused before the open workspace closes: it stays open.
    clearAutoMemPathCache()
    checkMemoryDirUsable(getAutoMemPath(ctx))
    const previous = workspace
    await previous?.close(5_000)
    const next = new Workspace({
      ctx,
      model: createModelRuntime(loadEffectiveConfig(ctx)),
      activity: deps.activity,
      isDemo,
      teamPullIntervalMs: deps.teamPullIntervalMs,
      onMemoriesChanged: deps.emit.memoriesChanged,
      onTeamStatus: deps.emit.teamStatus,
      onReviewChanged: deps.emit.reviewChanged,
    })
    workspace = next
    try {
      await next.start()
    } catch (e) {
      // The workspace could not open (its dir became unreadable meanwhile): the one before comes back.
      await next.close(0).catch(() => undefined)
      workspace = undefined
      if (previous) await open(previous.ctx, previous.info().isDemo).catch(() => undefined)
      throw e
    }
    deps.emit.workspaceChanged(next.info())
    return next.info()
  }

  const list = (): Promise<WorkspaceSummary[]> => {
    const open = workspace
    const info = open?.info()
    // The open workspace is counted from its index: listing a big memory dir again on every call
    // held up the first screen's other calls at launch (10,000 files: 30–500 ms).
    const count = (memoryDir: string, projectRoot: string) =>
      open && memoryDir === dirKey(open.memoryDir) && (!projectRoot || projectRoot === open.ctx.projectRoot)
        ? open.memoryCount({ agents: !!projectRoot })
        : countMemories(memoryDir, projectRoot)
    return discoverWorkspaces(deps.base, deps.env, info && !info.isDemo ? info.projectRoot : undefined, count)
  }

  /**
   * Opens a folder: the workspace its memory dir belongs to. A subfolder of a listed project
   * (proj/src) selects that project, so every memory dir has one entry; the folder becomes a recent.
   */
  async function openFolder(folder: string): Promise<WorkspaceInfo> {
    const root = resolve(folder)
    checkFolder(root, folder)
    const memoryDir = dirKey(getAutoMemPath(deps.projectCtx(root)))
    const listed = (await list()).find((w) => w.memoryDir === memoryDir && w.projectRoot)
    const projectRoot = listed?.projectRoot ?? root
    await rememberRecent(deps.base, projectRoot)
    return open(deps.projectCtx(projectRoot), false)
  }

  /** A memory dir no transcript names: the user picks its project folder once; it is remembered. */
  async function link(memoryDir: string, folder: string): Promise<WorkspaceInfo> {
    const root = resolve(folder)
    checkFolder(root, folder)
    const actual = dirKey(getAutoMemPath(deps.projectCtx(root)))
    if (actual !== dirKey(memoryDir))
      throw new MemdirError(
        'BAD_REQUEST',
        `${root} keeps its memory in ${actual}, not ${dirKey(memoryDir)}: pick the folder Claude Code ran in.`,
      )
    await rememberRoot(deps.base, memoryDir, root)
    return open(deps.projectCtx(root), false)
  }

  /** The first workspace: the one asked for, else the busiest project whose folder is known, else the demo. */
  async function openFirst(projectRoot: string | undefined): Promise<void> {
    if (projectRoot) {
      await open(deps.projectCtx(projectRoot), false)
      return
    }
    const busiest = (await list()).find((w) => w.projectRoot && w.memoryCount > 0)
    if (busiest) {
      await open(deps.projectCtx(busiest.projectRoot), false)
      return
    }
    const demo = await prepareDemo(getAppDataDir(deps.base), deps.resourcesDir)
    await open(
      deps.projectCtx(demo.projectRoot, { ...deps.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: demo.memoryDir }),
      true,
    )
  }

  return {
    open,
    openFolder,
    link,
    list,
    openFirst,
    /** The open workspace, if any. */
    get: () => workspace,
    current(): Workspace {
      if (!workspace) throw new MemdirError('NO_WORKSPACE', 'No workspace is open.')
      return workspace
    },
    /** The open project again, with the settings just saved (its team switch lives in its context). */
    async reopen(): Promise<void> {
      if (!workspace) return
      const { ctx } = workspace
      await open(deps.projectCtx(ctx.projectRoot, ctx.env, ctx.flagSettingsPath), workspace.info().isDemo)
    },
    close: (drainMs?: number) => workspace?.close(drainMs),
  }
}

export type Workspaces = ReturnType<typeof createWorkspaces>

export function workspaceHandlers(
  workspaces: Workspaces,
): FeatureHandlers<'workspace/list' | 'workspace/current' | 'workspace/open' | 'workspace/link'> {
  return {
    'workspace/list': () => workspaces.list(),
    'workspace/current': async () => workspaces.current().info(),
    'workspace/open': ({ projectRoot }) => workspaces.openFolder(projectRoot),
    'workspace/link': ({ memoryDir, projectRoot }) => workspaces.link(memoryDir, projectRoot),
  }
}
