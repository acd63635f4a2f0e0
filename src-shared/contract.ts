import * as z from 'zod/mini'
import { describeIssues } from './schema-common.js'
import type {
  ActivityItem,
  DreamRunResult,
  DreamStatusView,
  HealthFixResult,
  HealthView,
  HistoryDiff,
  HistoryItem,
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

export const MemoryTypeSchema = z.enum(['user', 'feedback', 'project', 'reference'])

const relPath = z.string().check(z.minLength(1, 'a file path relative to the memory dir'))

export const MemoryInputSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  type: z.nullable(MemoryTypeSchema),
  body: z.string(),
})

export const SettingsInputSchema = z.strictObject({
  modelBaseURL: z.optional(z.string()),
  modelApiKey: z.optional(z.string()),
  selectorModel: z.optional(z.string()),
  agentModel: z.optional(z.string()),
  extractionEnabled: z.optional(z.boolean()),
  dreamEnabled: z.optional(z.boolean()),
  dreamMinHours: z.optional(z.number().check(z.minimum(0, 'Minimum hours must be 0 or more.'))),
  dreamMinSessions: z.optional(z.int('Minimum sessions must be a whole number.').check(z.minimum(0))),
  teamUrl: z.optional(z.string()),
  teamToken: z.optional(z.string()),
  teamRepo: z.optional(z.string()),
  reviewMode: z.optional(z.boolean()),
  memoryFormat: z.optional(z.enum(['auto', 'flat', 'nested'])),
  teamMemoryEnabled: z.optional(z.nullable(z.boolean())),
  keepInBackground: z.optional(z.boolean()),
  startAtLogin: z.optional(z.boolean()),
})

export type MemoryInput = z.infer<typeof MemoryInputSchema>
export type SettingsInput = z.infer<typeof SettingsInputSchema>

const none = z.undefined()

export const RPC_ARGS = {
  'workspace/list': none,
  'workspace/current': none,
  'workspace/open': z.strictObject({ projectRoot: z.string().check(z.minLength(1, 'a folder path')) }),
  'workspace/link': z.strictObject({
    memoryDir: z.string().check(z.minLength(1, 'the memory dir')),
    projectRoot: z.string().check(z.minLength(1, 'a folder path')),
  }),
  'memory/list': none,
  'memory/read': z.strictObject({ relPath }),
  'memory/create': z.strictObject({
    input: MemoryInputSchema,
    scope: z.enum(['private', 'team']),
    fileName: z.optional(z.string()),
    /** The user saw the secret warning for this private memory and saves anyway. */
    acceptSecretWarning: z.optional(z.boolean()),
  }),
  'memory/update': z.strictObject({
    relPath,
    input: MemoryInputSchema,
    expectedHash: z.string(),
    acceptSecretWarning: z.optional(z.boolean()),
  }),
  'memory/rename': z.strictObject({ from: relPath, to: relPath }),
  'memory/delete': z.strictObject({ relPath, expectedHash: z.optional(z.string()) }),
  'memory/search': z.strictObject({ query: z.string() }),
  'index/get': none,
  'prompt/get': z.strictObject({ mode: z.enum(['normal', 'team', 'kairos']) }),
  'recall/preview': z.strictObject({ query: z.string(), recentTools: z.array(z.string()) }),
  'activity/list': none,
  'team/status': none,
  'team/syncNow': none,
  'settings/get': none,
  'settings/set': SettingsInputSchema,
  'history/list': z.strictObject({ path: z.optional(z.string()) }),
  'history/diff': z.strictObject({ id: z.int().check(z.positive()) }),
  'history/restore': z.strictObject({ path: relPath, id: z.int().check(z.positive()) }),
  'history/undoRun': z.strictObject({ runId: z.string().check(z.minLength(1)) }),
  'review/list': none,
  'review/approve': z.strictObject({
    id: z.string().check(z.minLength(1)),
    edits: z.optional(z.record(z.string(), z.nullable(z.string()))),
  }),
  'review/reject': z.strictObject({ id: z.string().check(z.minLength(1)) }),
  'dream/status': none,
  'dream/run': z.strictObject({ force: z.boolean() }),
  'health/get': none,
  'health/fix': z.strictObject({
    id: z.string().check(z.minLength(1)),
    fix: z.enum(['remove-pointer', 'add-pointer', 'compact-index', 'verify', 'update-path', 'merge']),
  }),
  'integrations/get': none,
  'integrations/planHooks': z.strictObject({
    scope: z.enum(['user', 'project', 'local']),
    action: z.enum(['install', 'uninstall']),
  }),
  'integrations/applyHooks': z.strictObject({
    scope: z.enum(['user', 'project', 'local']),
    action: z.enum(['install', 'uninstall']),
    beforeHash: z.nullable(z.string()),
  }),
} satisfies Record<string, z.ZodMiniType>

export type MethodName = keyof typeof RPC_ARGS
export type ArgsOf<M extends MethodName> = z.infer<(typeof RPC_ARGS)[M]>

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
  'history/list': HistoryItem[]
  'history/diff': HistoryDiff
  'history/restore': void
  'history/undoRun': string[]
  'review/list': ProposalView[]
  'review/approve': void
  'review/reject': void
  'dream/status': DreamStatusView
  'dream/run': DreamRunResult
  'health/get': HealthView
  'health/fix': HealthFixResult
  'integrations/get': IntegrationsView
  'integrations/planHooks': HookPlanView
  'integrations/applyHooks': { backup?: string; status: HookStatusView }
}
export type ResultOf<M extends MethodName> = RpcResults[M]

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
  const r = RPC_ARGS[method].safeParse(args)
  if (r.success) return { ok: true, value: r.data as ArgsOf<M> }
  return { ok: false, message: `${method}: ${describeIssues(r.error)}` }
}
