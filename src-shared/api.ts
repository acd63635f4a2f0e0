import type {
  ActivityItem,
  HistoryDiff,
  HistoryItem,
  ProposalView,
  IndexView,
  MemoryDoc,
  MemoryInput,
  MemoryListItem,
  MemoryScope,
  PromptPreview,
  RecallPreview,
  SettingsInput,
  SettingsView,
  TeamStatus,
  WorkspaceInfo,
  WorkspaceSummary,
} from './types.js'

/** Every call the UI can make, declared once. Transports only move `{method, args}` and results. */
export interface MemdirApi {
  'workspace/list': () => WorkspaceSummary[]
  'workspace/current': () => WorkspaceInfo
  'workspace/open': (a: { projectRoot: string }) => WorkspaceInfo
  'memory/list': () => MemoryListItem[]
  'memory/read': (a: { relPath: string }) => MemoryDoc
  'memory/create': (a: {
    input: MemoryInput
    scope: Exclude<MemoryScope, 'agent'>
    fileName?: string
  }) => MemoryDoc
  'memory/update': (a: { relPath: string; input: MemoryInput; expectedHash: string }) => MemoryDoc
  'memory/rename': (a: { from: string; to: string }) => MemoryDoc
  'memory/delete': (a: { relPath: string; expectedHash?: string }) => void
  'index/get': () => IndexView
  'prompt/get': (a: { mode: PromptPreview['mode'] }) => PromptPreview
  'recall/preview': (a: { query: string; recentTools: string[] }) => RecallPreview
  'activity/list': () => ActivityItem[]
  'team/status': () => TeamStatus
  'team/syncNow': () => TeamStatus
  'settings/get': () => SettingsView
  'settings/set': (a: SettingsInput) => SettingsView
  'history/list': (a: { path?: string }) => HistoryItem[]
  'history/diff': (a: { id: number }) => HistoryDiff
  'history/restore': (a: { path: string; id: number }) => void
  'history/undoRun': (a: { runId: string }) => string[]
  'review/list': () => ProposalView[]
  'review/approve': (a: { id: string; edits?: Record<string, string | null> }) => void
  'review/reject': (a: { id: string }) => void
}

export type MethodName = keyof MemdirApi
export type ArgsOf<M extends MethodName> =
  Parameters<MemdirApi[M]> extends [] ? undefined : Parameters<MemdirApi[M]>[0]
export type ResultOf<M extends MethodName> = ReturnType<MemdirApi[M]>

export const METHODS: readonly MethodName[] = [
  'workspace/list',
  'workspace/current',
  'workspace/open',
  'memory/list',
  'memory/read',
  'memory/create',
  'memory/update',
  'memory/rename',
  'memory/delete',
  'index/get',
  'prompt/get',
  'recall/preview',
  'activity/list',
  'team/status',
  'team/syncNow',
  'settings/get',
  'settings/set',
  'history/list',
  'history/diff',
  'history/restore',
  'history/undoRun',
  'review/list',
  'review/approve',
  'review/reject',
]

/** Events pushed to the UI. */
export type MemdirEvent =
  | { type: 'memories/changed'; paths: string[] }
  | { type: 'activity'; item: ActivityItem }
  | { type: 'team/status'; status: TeamStatus }
  | { type: 'workspace/changed'; info: WorkspaceInfo }
  | { type: 'review/changed' }

/** What the renderer sees as `window.memdir`: a named function per method plus an event stream. */
export type MemdirClient = {
  [M in MethodName]: (...args: Parameters<MemdirApi[M]>) => Promise<ResultOf<M>>
} & {
  onEvent: (listener: (e: MemdirEvent) => void) => () => void
}

/** Builds the client object from one `invoke` — used by the preload and the browser transport alike. */
export function createClient(
  invoke: (method: MethodName, args: unknown) => Promise<unknown>,
  subscribe: (listener: (e: MemdirEvent) => void) => () => void,
): MemdirClient {
  const client: Record<string, unknown> = { onEvent: subscribe }
  for (const m of METHODS) client[m] = (args?: unknown) => invoke(m, args)
  return client as MemdirClient
}
