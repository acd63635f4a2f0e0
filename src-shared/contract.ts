import * as v from 'valibot'
import { check, describeIssues, record, strictObject } from './schema-common.js'
import type {
  ActivityItem,
  DreamRunResult,
  DreamStatusView,
  HealthFixAllResult,
  HealthFixResult,
  HealthView,
  HistoryDiff,
  UndoOutcome,
  HistoryPage,
  HookPlanView,
  HookStatusView,
  IndexView,
  IntegrationsView,
  MemoryDoc,
  MemoryListItem,
  PromptPreview,
  ProposalView,
  RecallPreview,
  SearchHitView,
  SettingsView,
  TeamStatus,
  WorkspaceInfo,
  WorkspaceSummary,
} from './types.js'

/**
 * The RPC contract: every call the UI can make, declared once as a schema for its arguments.
 * The router validates arguments with it before a handler runs; argument types are inferred from
 * it, result types are declared beside it; the method list is its keys.
 */

export { describeIssues }

export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const
export const MemoryTypeSchema = v.picklist(MEMORY_TYPES)

const relPath = v.pipe(v.string(), v.minLength(1, 'a file path relative to the memory dir'))

/** The Health fixes "Fix all" (and `memdir doctor --fix`) apply to a whole kind as one run. */
export const BATCH_FIXES = ['remove-pointer', 'add-pointer', 'update-path', 'verify'] as const
export type BatchFix = (typeof BATCH_FIXES)[number]

export const MemoryInputSchema = strictObject({
  name: v.string(),
  description: v.string(),
  type: v.nullable(MemoryTypeSchema),
  body: v.string(),
})

export const SettingsInputSchema = strictObject({
  modelBaseURL: v.optional(v.string()),
  modelApiKey: v.optional(v.string()),
  selectorModel: v.optional(v.string()),
  agentModel: v.optional(v.string()),
  extractionEnabled: v.optional(v.boolean()),
  dreamEnabled: v.optional(v.boolean()),
  dreamMinHours: v.optional(v.pipe(v.number(), v.minValue(0, 'Minimum hours must be 0 or more.'))),
  dreamMinSessions: v.optional(
    v.pipe(v.number(), v.integer('Minimum sessions must be a whole number.'), v.minValue(0)),
  ),
  teamUrl: v.optional(v.string()),
  teamToken: v.optional(v.string()),
  teamRepo: v.optional(v.string()),
  reviewMode: v.optional(v.boolean()),
  memoryFormat: v.optional(v.picklist(['auto', 'flat', 'nested'])),
  teamMemoryEnabled: v.optional(v.nullable(v.boolean())),
  keepInBackground: v.optional(v.boolean()),
  startAtLogin: v.optional(v.boolean()),
})

export type MemoryInput = v.InferOutput<typeof MemoryInputSchema>
export type SettingsInput = v.InferOutput<typeof SettingsInputSchema>

const none = v.undefined()

export const RPC_ARGS = {
  'workspace/list': none,
  'workspace/current': none,
  'workspace/open': strictObject({ projectRoot: v.pipe(v.string(), v.minLength(1, 'a folder path')) }),
  'workspace/link': strictObject({
    memoryDir: v.pipe(v.string(), v.minLength(1, 'the memory dir')),
    projectRoot: v.pipe(v.string(), v.minLength(1, 'a folder path')),
  }),
  /** `first`: only the newest N (the window's first screen, before the whole list). */
  'memory/list': v.optional(
    strictObject({ first: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) }),
  ),
  'memory/read': strictObject({ relPath }),
  'memory/create': strictObject({
    input: MemoryInputSchema,
    scope: v.picklist(['private', 'team']),
    fileName: v.optional(v.string()),
    /** The user saw the secret warning for this private memory and saves anyway. */
    acceptSecretWarning: v.optional(v.boolean()),
  }),
  'memory/update': strictObject({
    relPath,
    input: MemoryInputSchema,
    expectedHash: v.string(),
    acceptSecretWarning: v.optional(v.boolean()),
  }),
  'memory/rename': strictObject({
    from: relPath,
    to: relPath,
    /** The user saw the secret warning for this private memory's new name and renames anyway. */
    acceptSecretWarning: v.optional(v.boolean()),
  }),
  'memory/delete': strictObject({ relPath, expectedHash: v.optional(v.string()) }),
  'memory/search': strictObject({ query: v.string() }),
  'index/get': none,
  'prompt/get': strictObject({ mode: v.picklist(['normal', 'team', 'kairos']) }),
  'recall/preview': strictObject({ query: v.string(), recentTools: v.array(v.string()) }),
  'activity/list': none,
  'team/status': none,
  'team/syncNow': none,
  'settings/get': none,
  'settings/set': SettingsInputSchema,
  // The newest `limit` changes (default 1,000); `more` says older ones exist (the timeline shows them on request).
  'history/list': strictObject({
    path: v.optional(v.string()),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  }),
  'history/diff': strictObject({ id: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  'history/restore': strictObject({ path: relPath, id: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  'history/undoRun': strictObject({ runId: v.pipe(v.string(), v.minLength(1)) }),
  'review/list': none,
  'review/approve': strictObject({
    id: v.pipe(v.string(), v.minLength(1)),
    edits: v.optional(record(v.nullable(v.string()))),
  }),
  'review/reject': strictObject({ id: v.pipe(v.string(), v.minLength(1)) }),
  'dream/status': none,
  'dream/run': strictObject({ force: v.boolean() }),
  'health/get': none,
  'health/checkContradictions': none,
  'health/fixAll': strictObject({
    kind: v.pipe(v.string(), v.minLength(1)),
    fix: v.picklist(BATCH_FIXES),
  }),
  'health/fix': strictObject({
    id: v.pipe(v.string(), v.minLength(1)),
    fix: v.picklist(['remove-pointer', 'add-pointer', 'compact-index', 'verify', 'update-path', 'merge']),
  }),
  'integrations/get': none,
  'integrations/planHooks': strictObject({
    scope: v.picklist(['user', 'project', 'local']),
    action: v.picklist(['install', 'uninstall']),
  }),
  'integrations/applyHooks': strictObject({
    scope: v.picklist(['user', 'project', 'local']),
    action: v.picklist(['install', 'uninstall']),
    beforeHash: v.nullable(v.string()),
  }),
} satisfies Record<string, v.GenericSchema>

export type MethodName = keyof typeof RPC_ARGS
export type ArgsOf<M extends MethodName> = v.InferOutput<(typeof RPC_ARGS)[M]>

/** What each method returns. */
export interface RpcResults {
  'workspace/list': WorkspaceSummary[]
  'workspace/current': WorkspaceInfo
  'workspace/open': WorkspaceInfo
  'workspace/link': WorkspaceInfo
  'memory/list': MemoryListItem[]
  'memory/read': MemoryDoc
  'memory/create': MemoryDoc
  'memory/update': MemoryDoc
  'memory/rename': MemoryDoc
  'memory/delete': void
  'memory/search': SearchHitView[]
  'index/get': IndexView
  'prompt/get': PromptPreview
  'recall/preview': RecallPreview
  'activity/list': ActivityItem[]
  'team/status': TeamStatus
  'team/syncNow': TeamStatus
  'settings/get': SettingsView
  'settings/set': SettingsView
  'history/list': HistoryPage
  'history/diff': HistoryDiff
  'history/restore': void
  'history/undoRun': UndoOutcome
  'review/list': ProposalView[]
  'review/approve': void
  'review/reject': void
  'dream/status': DreamStatusView
  'dream/run': DreamRunResult
  'health/get': HealthView
  'health/checkContradictions': HealthView
  'health/fixAll': HealthFixAllResult
  'health/fix': HealthFixResult
  'integrations/get': IntegrationsView
  'integrations/planHooks': HookPlanView
  'integrations/applyHooks': { backup?: string; status: HookStatusView }
}
export type ResultOf<M extends MethodName> = RpcResults[M]

/** One handler per method: the table a router dispatches to (a method without one does not compile). */
export type Handlers = { [M in MethodName]: (args: ArgsOf<M>) => Promise<ResultOf<M>> }

/** What one feature contributes to the table: handlers for exactly the methods `M`. */
export type FeatureHandlers<M extends MethodName> = Pick<Handlers, M>

// Every method has a result type and every result type a method.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
const _sameMethods: Exact<keyof RpcResults, MethodName> = true
void _sameMethods

export const METHODS = Object.keys(RPC_ARGS) as MethodName[]

export function isMethodName(m: unknown): m is MethodName {
  return typeof m === 'string' && Object.hasOwn(RPC_ARGS, m)
}

/** Validates a call's arguments; the error names the field. */
export function parseArgs<M extends MethodName>(
  method: M,
  args: unknown,
): { ok: true; value: ArgsOf<M> } | { ok: false; message: string } {
  const r = check(RPC_ARGS[method], args)
  return r.ok ? { ok: true, value: r.value as ArgsOf<M> } : { ok: false, message: `${method}: ${r.message}` }
}
