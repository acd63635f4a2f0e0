import { cp, mkdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { MemdirEvent } from '../../../src-shared/api.js'
import {
  isMethodName,
  parseArgs,
  type ArgsOf,
  type MethodName,
  type ResultOf,
} from '../../../src-shared/contract.js'
import { MemdirError, messageOf, type RpcResult, toErrorValue } from '../../../src-shared/errors.js'
import type { AppSettings } from '../../../src-shared/settings.js'
import type { SettingsInput, SettingsView, WorkspaceSummary } from '../../../src-shared/types.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { Env, ProjectContext } from '../../core/paths/context.js'
import { ActivityLog } from '../activity/activity-log.js'
import { listenForAgentJobs } from '../integrations/agent-socket.js'
import { applyHookChange, integrationsView, planHookChange } from '../integrations/integrations.js'
import { getAppDataDir, readAppSettings, saveAppSettings } from '../settings/app-data.js'
import { effectiveConfig, loadEffectiveConfig } from '../settings/config.js'
import { createModelRuntime } from '../settings/model-runtime.js'
import { createProjectContext } from '../settings/project.js'
import {
  API_KEY,
  migratePlainSecrets,
  readStoredSecrets,
  SECRET_LABEL,
  secretStorageOf,
  storeSecret,
  teamTokenId,
  type SecretCipher,
} from '../settings/secrets.js'
import { migrateLegacyTeamSettings, projectValues, saveProjectValues } from '../settings/project-values.js'
import { resolveTeamTarget } from '../team/team-setup.js'
import { Workspace } from './workspace.js'
import {
  dirKey,
  discoverWorkspaces,
  rememberRecent,
  rememberRoot,
  teamMigrationCandidates,
} from './workspace-list.js'

export interface HostOptions {
  env: Env
  /** Workspace to open first; without one: the most recent project, else the demo. */
  projectRoot?: string
  /** Where the demo workspace's sample memories come from (resources/demo). */
  resourcesDir?: string
  teamPullIntervalMs?: number
  /** Listen for Claude Code hook hand-offs on the data dir's socket (default: yes). */
  agentSocket?: boolean
  /**
   * The OS keychain (the desktop app's `safeStorage`): the team token and API key are stored
   * encrypted with it, and plain ones an older settings file holds move there on start. Without
   * one (`memdir web`) they go to a file only the user can read.
   */
  secretCipher?: SecretCipher
}

export interface Host {
  /** Any method name and arguments: both are checked against the contract before a handler runs. */
  call: (method: unknown, args: unknown) => Promise<RpcResult<unknown>>
  onEvent: (listener: (e: MemdirEvent) => void) => () => void
  /** Waits for a running extraction (up to `drainMs`, default 60 s) and sync, then closes. */
  close: (drainMs?: number) => Promise<void>
}

/** The composition root: one host per app; builds the services of the open workspace. */
export async function createHost(opts: HostOptions): Promise<Host> {
  const listeners = new Set<(e: MemdirEvent) => void>()
  const emit = (e: MemdirEvent) => listeners.forEach((l) => l(e))
  const activity = new ActivityLog((item) => emit({ type: 'activity', item }))
  const baseCtx = createProjectContext({ env: opts.env, cwd: opts.projectRoot ?? process.cwd() })
  let workspace: Workspace | undefined

  // Secrets never sit in the settings file: read once, shared by every context of this host.
  const cipher = opts.secretCipher
  // Shown once the first workspace's feed is attached (before that the feed has no file).
  const startNotices: Parameters<ActivityLog['add']>[0][] = []
  const secretProblem = (title: string, e: unknown, advice: string) =>
    startNotices.push({
      kind: 'settings',
      level: 'error',
      title,
      detail: `${messageOf(e)} — ${advice}`,
      files: [],
    })
  const moved = cipher
    ? await migratePlainSecrets(baseCtx, cipher).catch((e: unknown) => {
        secretProblem(
          'Plain secrets could not be moved out of the settings file',
          e,
          'they stay there for now.',
        )
        return []
      })
    : []
  if (moved.length)
    startNotices.push({
      kind: 'settings',
      level: 'info',
      title: `Moved the ${moved.map((n) => SECRET_LABEL[n]).join(' and ')} to ${cipher?.available() ? 'the OS keychain' : 'a file only you can read'}`,
      detail: 'They were in the settings file as plain text; the file now only notes where they are.',
      files: [],
    })
  // Team values saved before they were per project go to the project they were saved for.
  await migrateLegacyTeamSettings(
    baseCtx,
    await teamMigrationCandidates(baseCtx, opts.env, opts.projectRoot),
    cipher,
  ).catch((e: unknown) =>
    secretProblem(
      'The team settings could not be moved to their project',
      e,
      'enter them again on the Team sync page.',
    ),
  )
  // Read once, shared by every context of this host; saving one updates it.
  const secrets: { apiKey?: string; teamTokens: Record<string, string> } = (() => {
    try {
      const stored = readStoredSecrets(baseCtx, cipher)
      return { ...stored, teamTokens: { ...stored.teamTokens } }
    } catch (e) {
      secretProblem('Cannot read the stored team tokens or API key', e, 'enter them again in Settings.')
      return { teamTokens: {} }
    }
  })()
  const projectCtx = (cwd: string, env: Env = opts.env, flagSettingsPath?: string) =>
    createProjectContext({ cwd, env, flagSettingsPath, secrets })

  async function open(ctx: ProjectContext, isDemo: boolean) {
    await workspace?.close(5_000)
    clearAutoMemPathCache()
    workspace = new Workspace({
      ctx,
      model: createModelRuntime(loadEffectiveConfig(ctx)),
      activity,
      isDemo,
      teamPullIntervalMs: opts.teamPullIntervalMs,
      onMemoriesChanged: (paths) => emit({ type: 'memories/changed', paths }),
      onTeamStatus: (status) => emit({ type: 'team/status', status }),
      onReviewChanged: () => emit({ type: 'review/changed' }),
    })
    await workspace.start()
    emit({ type: 'workspace/changed', info: workspace.info() })
    return workspace.info()
  }

  async function demoContext(): Promise<ProjectContext> {
    const demoRoot = join(getAppDataDir(baseCtx), 'demo')
    const memory = join(demoRoot, 'memory')
    if (!existsSync(memory) && opts.resourcesDir) {
      await mkdir(demoRoot, { recursive: true })
      await cp(join(opts.resourcesDir, 'demo', 'memory'), memory, { recursive: true })
    }
    await mkdir(join(demoRoot, 'project'), { recursive: true })
    return projectCtx(join(demoRoot, 'project'), { ...opts.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: memory })
  }

  const listWorkspaces = (): Promise<WorkspaceSummary[]> => {
    const info = workspace?.info()
    return discoverWorkspaces(baseCtx, opts.env, info && !info.isDemo ? info.projectRoot : undefined)
  }

  /**
   * Opens a folder: the workspace its memory dir belongs to. A subfolder of a listed project
   * (proj/src) selects that project, so every memory dir has one entry; the folder becomes a recent.
   */
  async function openFolder(folder: string) {
    const root = resolve(folder)
    if (!existsSync(root)) throw new MemdirError('NOT_FOUND', `No such folder: ${folder}`)
    const memoryDir = dirKey(getAutoMemPath(projectCtx(root)))
    const listed = (await listWorkspaces()).find((w) => w.memoryDir === memoryDir && w.projectRoot)
    const projectRoot = listed?.projectRoot ?? root
    await rememberRecent(baseCtx, projectRoot)
    return open(projectCtx(projectRoot), false)
  }

  /** A memory dir no transcript names: the user picks its project folder once; it is remembered. */
  async function linkFolder(memoryDir: string, folder: string) {
    const root = resolve(folder)
    if (!existsSync(root)) throw new MemdirError('NOT_FOUND', `No such folder: ${folder}`)
    const actual = dirKey(getAutoMemPath(projectCtx(root)))
    if (actual !== dirKey(memoryDir))
      throw new MemdirError(
        'BAD_REQUEST',
        `${root} keeps its memory in ${actual}, not ${dirKey(memoryDir)}: pick the folder Claude Code ran in.`,
      )
    await rememberRoot(baseCtx, memoryDir, root)
    return open(projectCtx(root), false)
  }

  function current(): Workspace {
    if (!workspace) throw new MemdirError('NO_WORKSPACE', 'No workspace is open.')
    return workspace
  }

  /** The settings, with the team server, repo and token of the open project (never another's). */
  function settingsView(): SettingsView {
    const loaded = readAppSettings(baseCtx)
    const memoryDir = workspace?.memoryDir
    const c = effectiveConfig(
      opts.env,
      loaded.settings,
      secrets,
      memoryDir ? projectValues(loaded.settings, memoryDir) : {},
    )
    const target = workspace ? resolveTeamTarget(workspace.ctx) : undefined
    const sources = Object.fromEntries(
      Object.entries(c).map(([k, v]) => [k, { source: v.source, ...(v.envVar ? { envVar: v.envVar } : {}) }]),
    )
    const apiKeyStored =
      secretStorageOf(loaded.settings, API_KEY) ?? (loaded.settings.apiKey ? 'settings' : undefined)
    const tokenStored = target?.tokenFrom === 'env' ? undefined : target?.tokenFrom
    return {
      modelBaseURL: c.baseURL.value ?? '',
      modelApiKeySet: Boolean(c.apiKey.value || c.authToken.value),
      selectorModel: c.selectorModel.value,
      agentModel: c.agentModel.value,
      extractionEnabled: c.extractionEnabled.value,
      dreamEnabled: c.dreamEnabled.value,
      dreamMinHours: c.dreamMinHours.value,
      dreamMinSessions: c.dreamMinSessions.value,
      teamUrl: c.teamUrl.value ?? '',
      teamTokenSet: Boolean(target?.token),
      secretStorage: {
        ...(tokenStored ? { teamToken: tokenStored } : {}),
        ...(apiKeyStored && (secrets.apiKey || loaded.settings.apiKey) ? { apiKey: apiKeyStored } : {}),
        keychain: Boolean(cipher?.available()),
      },
      teamRepo: c.teamRepo.value ?? '',
      reviewMode: c.reviewMode.value,
      memoryFormat: c.memoryFormat.value,
      teamMemoryEnabled: c.teamMemoryEnabled.value ?? null,
      keepInBackground: loaded.settings.keepInBackground ?? true,
      startAtLogin: loaded.settings.startAtLogin ?? false,
      sources,
      ...(loaded.problem ? { problem: loaded.problem } : {}),
    }
  }

  async function saveSettings(input: SettingsInput): Promise<SettingsView> {
    const s: AppSettings = { ...readAppSettings(baseCtx).settings }
    const set = <K extends keyof AppSettings>(k: K, v: AppSettings[K] | '' | null | undefined) => {
      if (v === undefined) return
      if (v === '' || v === null) delete s[k]
      else s[k] = v
    }
    if (input.teamUrl) {
      try {
        new URL(input.teamUrl)
      } catch {
        throw new MemdirError('BAD_REQUEST', `teamUrl: not a URL: ${input.teamUrl}`)
      }
    }
    if (input.teamRepo && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(input.teamRepo.trim()))
      throw new MemdirError('BAD_REQUEST', `teamRepo: write it as owner/name, not ${input.teamRepo}`)
    const teamFields =
      input.teamUrl !== undefined || input.teamRepo !== undefined || input.teamToken !== undefined
    if (teamFields && !workspace)
      throw new MemdirError('NO_WORKSPACE', 'Open a project first: its team server and repo are its own.')
    set('baseURL', input.modelBaseURL)
    set('selectorModel', input.selectorModel)
    set('agentModel', input.agentModel)
    set('extractionEnabled', input.extractionEnabled)
    set('dreamEnabled', input.dreamEnabled)
    set('dreamMinHours', input.dreamMinHours)
    set('dreamMinSessions', input.dreamMinSessions)
    set('reviewMode', input.reviewMode)
    set('memoryFormat', input.memoryFormat)
    set('teamMemoryEnabled', input.teamMemoryEnabled)
    set('keepInBackground', input.keepInBackground)
    set('startAtLogin', input.startAtLogin)
    await saveAppSettings(baseCtx, s)
    if (input.modelApiKey !== undefined) {
      await storeSecret(baseCtx, API_KEY, input.modelApiKey, cipher)
      if (input.modelApiKey) secrets.apiKey = input.modelApiKey
      else delete secrets.apiKey
    }
    // The open project's team server, repo and token: saved for it alone.
    if (workspace && teamFields) {
      await saveProjectValues(baseCtx, workspace.memoryDir, {
        teamUrl: input.teamUrl?.trim(),
        teamRepo: input.teamRepo?.trim(),
      })
      if (input.teamToken !== undefined) {
        const target = resolveTeamTarget(reopened(workspace.ctx))
        if (!target.pair)
          throw new MemdirError(
            'BAD_REQUEST',
            'A team token belongs to a server and a repo: set the server URL (and the repo, if the project has no git origin) first.',
          )
        await storeSecret(baseCtx, teamTokenId(target.pair), input.teamToken, cipher)
        if (input.teamToken) secrets.teamTokens[target.pair] = input.teamToken
        else delete secrets.teamTokens[target.pair]
      }
    }
    const desktopOnly = Object.keys(input).every((k) => k === 'keepInBackground' || k === 'startAtLogin')
    if (workspace && !desktopOnly) await open(reopened(workspace.ctx), workspace.info().isDemo)
    const view = settingsView()
    emit({ type: 'settings/changed', settings: view })
    return view
  }

  /** The same project with the settings just saved (the team switch lives in its context). */
  const reopened = (ctx: ProjectContext) => projectCtx(ctx.projectRoot, ctx.env, ctx.flagSettingsPath)

  const handlers: { [M in MethodName]: (a: ArgsOf<M>) => Promise<ResultOf<M>> } = {
    'workspace/list': () => listWorkspaces(),
    'workspace/current': async () => current().info(),
    'workspace/open': ({ projectRoot }) => openFolder(projectRoot),
    'workspace/link': ({ memoryDir, projectRoot }) => linkFolder(memoryDir, projectRoot),
    'memory/list': () => current().memories.list(),
    'memory/read': ({ relPath }) => current().memories.read(relPath),
    'memory/create': ({ input, scope, fileName, acceptSecretWarning }) =>
      current().memories.create(input, scope, fileName, acceptSecretWarning),
    'memory/update': ({ relPath, input, expectedHash, acceptSecretWarning }) =>
      current().memories.update(relPath, input, expectedHash, acceptSecretWarning),
    'memory/rename': ({ from, to }) => current().memories.rename(from, to),
    'memory/delete': ({ relPath, expectedHash }) => current().memories.delete(relPath, expectedHash),
    'memory/search': ({ query }) => current().search.search(query),
    'index/get': () => current().indexView(),
    'prompt/get': ({ mode }) => current().promptPreview(mode),
    'recall/preview': ({ query, recentTools }) => current().recallPreview(query, recentTools),
    'activity/list': async () => activity.list(),
    'team/status': async () => current().team.status(),
    'team/syncNow': () => current().team.syncNow(),
    'settings/get': async () => settingsView(),
    'settings/set': (a) => saveSettings(a),
    'history/list': ({ path }) => current().timeline.list(path),
    'history/diff': ({ id }) => current().timeline.diff(id),
    'history/restore': ({ path, id }) => current().timeline.restore(path, id),
    'history/undoRun': ({ runId }) => current().timeline.undoRun(runId),
    'review/list': () => current().timeline.proposals(),
    'review/approve': ({ id, edits }) => current().timeline.approve(id, edits),
    'review/reject': ({ id }) => current().timeline.reject(id),
    'dream/status': () => current().dreamStatus(),
    'dream/run': ({ force }) => current().dreamRun(force),
    'health/get': () => current().health.report(),
    'health/fix': ({ id, fix }) => current().health.fix(id, fix),
    'integrations/get': () => integrationsView(current().ctx),
    'integrations/planHooks': ({ scope, action }) => planHookChange(current().ctx, scope, action),
    'integrations/applyHooks': ({ scope, action, beforeHash }) =>
      applyHookChange(current().ctx, scope, action, beforeHash),
  }

  // Claude Code's Stop hook hands finished turns of the open workspace to this app.
  const agentSocket =
    opts.agentSocket === false
      ? undefined
      : await listenForAgentJobs(
          getAppDataDir(baseCtx),
          async (job) => {
            const ws = workspace
            const target = getAutoMemPath(projectCtx(job.projectRoot))
            if (!ws || target !== ws.memoryDir)
              return { accepted: false, reason: 'the app has another workspace open' }
            await ws.turnEnded(job.transcriptPath)
            return { accepted: true }
          },
          // Only the desktop app, which holds the keychain, hands secrets to the CLI.
          cipher
            ? (req) =>
                req.name === 'apiKey' ? secrets.apiKey : req.pair ? secrets.teamTokens[req.pair] : undefined
            : undefined,
        ).catch((e: Error) => {
          activity.add({
            kind: 'extraction',
            level: 'warning',
            title: 'Claude Code hooks cannot reach this app',
            detail: `${e.message} — hook-triggered extraction runs in the background instead.`,
            files: [],
          })
          return undefined
        })

  // First workspace: the one asked for, else the busiest known project, else the demo.
  if (opts.projectRoot) await open(projectCtx(opts.projectRoot), false)
  else {
    // The busiest project whose folder is known; a machine with no memories yet gets the demo.
    const first = (await listWorkspaces()).find((w) => w.projectRoot && w.memoryCount > 0)
    if (first) await open(projectCtx(first.projectRoot), false)
    else await open(await demoContext(), true)
  }
  for (const notice of startNotices) activity.add(notice)

  return {
    async call(method, args) {
      if (!isMethodName(method))
        return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown method: ${String(method)}` } }
      const parsed = parseArgs(method, args)
      if (!parsed.ok) return { ok: false, error: { code: 'BAD_REQUEST', message: parsed.message } }
      try {
        const handler = handlers[method] as (a: unknown) => Promise<unknown>
        return { ok: true, value: await handler(parsed.value) }
      } catch (e) {
        return { ok: false, error: toErrorValue(e) }
      }
    },
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close(drainMs?: number) {
      await agentSocket?.close()
      await workspace?.close(drainMs)
      await activity.close()
      listeners.clear()
    },
  }
}
