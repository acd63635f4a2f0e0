import { cp, mkdir, readdir, readFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { MethodName, MemdirEvent } from '../../src-shared/api.js'
import type { RpcError, RpcResult } from '../../src-shared/errors.js'
import type { SettingsInput, SettingsView, WorkspaceSummary } from '../../src-shared/types.js'
import { clearAutoMemPathCache } from '../core/paths/auto-mem-path.js'
import { getClaudeConfigDir } from '../core/paths/base-dir.js'
import type { Env, ProjectContext } from '../core/paths/context.js'
import { ConflictError, sha256Hex, writeFileAtomic } from '../core/store/atomic-write.js'
import { PathTraversalError } from '../core/store/contained-path.js'
import { MemoryFileError } from '../core/store/memory-files.js'
import { listMemoryFiles } from '../core/store/scan.js'
import { DEFAULT_AGENT_MODEL, DEFAULT_SELECTOR_MODEL } from '../core/model/config.js'
import { ActivityLog } from './activity-log.js'
import { getAppDataDir, loadAppSettings, type AppSettings } from './app-data.js'
import { createModelRuntime } from './model.js'
import { createProjectContext } from './project.js'
import { HostError } from './errors.js'
import { Workspace } from './workspace.js'

export interface HostOptions {
  env: Env
  /** Workspace to open first; without one: the most recent project, else the demo. */
  projectRoot?: string
  /** Where the demo workspace's sample memories come from (resources/demo). */
  resourcesDir?: string
  teamPullIntervalMs?: number
}

type Handler = (args: never) => Promise<unknown>

export interface Host {
  call: (method: MethodName, args: unknown) => Promise<RpcResult<unknown>>
  onEvent: (listener: (e: MemdirEvent) => void) => () => void
  close: () => Promise<void>
}

export function toRpcError(e: unknown): RpcError {
  if (e instanceof ConflictError) {
    return {
      code: 'CONFLICT',
      message: `${e.message}. Both versions are shown; choose which to keep.`,
      details: {
        current: e.current,
        currentHash: e.current === null ? null : sha256Hex(e.current),
        attempted: e.attempted,
      },
    }
  }
  if (e instanceof MemoryFileError || e instanceof HostError)
    return { code: e.code, message: e.message, details: (e as HostError).details }
  if (e instanceof PathTraversalError) return { code: 'INVALID_PATH', message: e.message }
  const code = (e as NodeJS.ErrnoException)?.code
  if (code === 'ENOENT') return { code: 'NOT_FOUND', message: 'That file no longer exists.' }
  return { code: 'INTERNAL', message: (e as Error)?.message ?? String(e) }
}

/** Reads the project path Claude Code recorded (`cwd`) from any transcript in a project dir. */
async function projectRootFromTranscripts(dir: string): Promise<string | undefined> {
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.jsonl')).slice(0, 5)
  for (const n of names) {
    const head = (await readFile(join(dir, n), 'utf8').catch(() => '')).slice(0, 20_000)
    const m = /"cwd":"((?:[^"\\]|\\.)*)"/.exec(head)
    if (m) return JSON.parse(`"${m[1]}"`) as string
  }
  return undefined
}

/** The composition root: one host per app; builds the services of the open workspace. */
export async function createHost(opts: HostOptions): Promise<Host> {
  const listeners = new Set<(e: MemdirEvent) => void>()
  const emit = (e: MemdirEvent) => listeners.forEach((l) => l(e))
  const activity = new ActivityLog((item) => emit({ type: 'activity', item }))
  const baseCtx = createProjectContext({ env: opts.env, cwd: opts.projectRoot ?? process.cwd() })
  const settingsPath = join(getAppDataDir(baseCtx), 'settings.json')
  let workspace: Workspace | undefined

  const settingsNow = (): AppSettings => loadAppSettings(baseCtx)

  async function demoContext(): Promise<ProjectContext> {
    const demoRoot = join(getAppDataDir(baseCtx), 'demo')
    const memory = join(demoRoot, 'memory')
    if (!existsSync(memory) && opts.resourcesDir) {
      await mkdir(demoRoot, { recursive: true })
      await cp(join(opts.resourcesDir, 'demo', 'memory'), memory, { recursive: true })
    }
    await mkdir(join(demoRoot, 'project'), { recursive: true })
    return createProjectContext({
      cwd: join(demoRoot, 'project'),
      env: { ...opts.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: memory },
    })
  }

  async function listWorkspaces(): Promise<WorkspaceSummary[]> {
    const projects = join(getClaudeConfigDir(baseCtx), 'projects')
    const out: WorkspaceSummary[] = []
    for (const name of await readdir(projects).catch(() => [])) {
      const dir = join(projects, name)
      const memoryDir = join(dir, 'memory')
      const root = await projectRootFromTranscripts(dir)
      if (!root && !existsSync(memoryDir)) continue
      const count = (await listMemoryFiles(memoryDir)).length
      out.push({
        projectRoot: root ?? '',
        label: root ? root.split(/[\\/]/).filter(Boolean).pop()! : name,
        memoryDir,
        memoryCount: count,
      })
    }
    return out.filter((w) => w.projectRoot).sort((a, b) => b.memoryCount - a.memoryCount)
  }

  async function open(ctx: ProjectContext, isDemo: boolean) {
    await workspace?.close()
    clearAutoMemPathCache()
    const s = settingsNow()
    const model = createModelRuntime(ctx.env, {
      apiKey: s.apiKey,
      baseURL: s.baseURL,
      selectorModel: s.selectorModel,
      agentModel: s.agentModel,
    })
    workspace = new Workspace({
      ctx,
      model,
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

  function current(): Workspace {
    if (!workspace) throw new HostError('NO_WORKSPACE', 'No workspace is open.')
    return workspace
  }

  function settingsView(): SettingsView {
    const s = settingsNow()
    return {
      modelBaseURL: s.baseURL ?? opts.env.ANTHROPIC_BASE_URL ?? '',
      modelApiKeySet: Boolean(s.apiKey || opts.env.ANTHROPIC_API_KEY || opts.env.ANTHROPIC_AUTH_TOKEN),
      selectorModel: s.selectorModel ?? opts.env.MEMDIR_SELECTOR_MODEL ?? DEFAULT_SELECTOR_MODEL,
      agentModel: s.agentModel ?? opts.env.MEMDIR_AGENT_MODEL ?? DEFAULT_AGENT_MODEL,
      extractionEnabled: s.extractionEnabled !== false,
      dreamEnabled: s.dreamEnabled !== false,
      dreamMinHours: s.dreamMinHours ?? 24,
      dreamMinSessions: s.dreamMinSessions ?? 5,
      teamUrl: s.teamUrl ?? opts.env.MEMDIR_TEAM_URL ?? '',
      teamTokenSet: Boolean(s.teamToken || opts.env.MEMDIR_TEAM_TOKEN),
      teamRepo: s.teamRepo ?? opts.env.MEMDIR_TEAM_REPO ?? '',
      reviewMode: s.reviewMode === true,
    }
  }

  async function saveSettings(input: SettingsInput): Promise<SettingsView> {
    const s = { ...settingsNow() }
    const set = <K extends keyof AppSettings>(k: K, v: AppSettings[K] | undefined) => {
      if (v !== undefined) s[k] = v === '' ? undefined : v
    }
    if (input.dreamMinHours !== undefined && !(input.dreamMinHours >= 0))
      throw new HostError('INVALID_INPUT', 'Minimum hours must be 0 or more.')
    if (
      input.dreamMinSessions !== undefined &&
      !(Number.isInteger(input.dreamMinSessions) && input.dreamMinSessions >= 0)
    ) {
      throw new HostError('INVALID_INPUT', 'Minimum sessions must be a whole number.')
    }
    if (input.teamUrl) {
      try {
        new URL(input.teamUrl)
      } catch {
        throw new HostError('INVALID_INPUT', `Not a URL: ${input.teamUrl}`)
      }
    }
    set('baseURL', input.modelBaseURL)
    set('apiKey', input.modelApiKey)
    set('selectorModel', input.selectorModel)
    set('agentModel', input.agentModel)
    set('extractionEnabled', input.extractionEnabled)
    set('dreamEnabled', input.dreamEnabled)
    set('dreamMinHours', input.dreamMinHours)
    set('dreamMinSessions', input.dreamMinSessions)
    set('teamUrl', input.teamUrl)
    set('teamToken', input.teamToken)
    set('teamRepo', input.teamRepo)
    set('reviewMode', input.reviewMode)
    await mkdir(getAppDataDir(baseCtx), { recursive: true })
    // Holds tokens and keys: readable by the user only.
    await writeFileAtomic(settingsPath, JSON.stringify(s, null, 2) + '\n', { mode: 0o600 })
    if (workspace) await open(workspace.ctx, workspace.info().isDemo)
    return settingsView()
  }

  const handlers: Record<MethodName, Handler> = {
    'workspace/list': () => listWorkspaces(),
    'workspace/current': async () => current().info(),
    'workspace/open': async (a: { projectRoot: string }) => {
      const root = resolve(String(a?.projectRoot ?? ''))
      if (!a?.projectRoot || !existsSync(root))
        throw new HostError('NOT_FOUND', `No such folder: ${a?.projectRoot ?? ''}`)
      return open(createProjectContext({ cwd: root, env: opts.env }), false)
    },
    'memory/list': () => current().memories.list(),
    'memory/read': (a: { relPath: string }) => current().memories.read(a.relPath),
    'memory/create': (a: { input: never; scope: 'private' | 'team'; fileName?: string }) =>
      current().memories.create(a.input, a.scope === 'team' ? 'team' : 'private', a.fileName),
    'memory/update': (a: { relPath: string; input: never; expectedHash: string }) =>
      current().memories.update(a.relPath, a.input, a.expectedHash),
    'memory/rename': (a: { from: string; to: string }) => current().memories.rename(a.from, a.to),
    'memory/delete': (a: { relPath: string; expectedHash?: string }) =>
      current().memories.delete(a.relPath, a.expectedHash),
    'index/get': () => current().indexView(),
    'prompt/get': (a: { mode: 'normal' | 'team' | 'kairos' }) => current().promptPreview(a?.mode ?? 'normal'),
    'recall/preview': (a: { query: string; recentTools: string[] }) =>
      current().recallPreview(
        String(a?.query ?? ''),
        Array.isArray(a?.recentTools) ? a.recentTools.map(String) : [],
      ),
    'activity/list': async () => activity.list(),
    'team/status': async () => current().team.status(),
    'team/syncNow': () => current().team.syncNow(),
    'settings/get': async () => settingsView(),
    'settings/set': (a: SettingsInput) => saveSettings(a ?? {}),
    'history/list': (a: { path?: string }) => current().timeline.list(a?.path),
    'history/diff': (a: { id: number }) => current().timeline.diff(Number(a?.id)),
    'history/restore': (a: { path: string; id: number }) =>
      current().timeline.restore(String(a?.path), Number(a?.id)),
    'history/undoRun': (a: { runId: string }) => current().timeline.undoRun(String(a?.runId)),
    'review/list': () => current().timeline.proposals(),
    'review/approve': (a: { id: string; edits?: Record<string, string | null> }) =>
      current().timeline.approve(String(a?.id), a?.edits),
    'review/reject': (a: { id: string }) => current().timeline.reject(String(a?.id)),
  }

  // First workspace: the one asked for, else the busiest known project, else the demo.
  if (opts.projectRoot) await open(createProjectContext({ cwd: opts.projectRoot, env: opts.env }), false)
  else {
    const known = await listWorkspaces()
    if (known[0]) await open(createProjectContext({ cwd: known[0].projectRoot, env: opts.env }), false)
    else await open(await demoContext(), true)
  }

  return {
    async call(method, args) {
      const handler = handlers[method]
      if (!handler)
        return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown method: ${String(method)}` } }
      try {
        return { ok: true, value: await handler(args as never) }
      } catch (e) {
        return { ok: false, error: toRpcError(e) }
      }
    },
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      await workspace?.close()
      listeners.clear()
    },
  }
}
