import * as v from 'valibot'
import { CLIENT_MEMORY_ENV } from './client-memory-env.js'
import { looseObject } from './schema-common.js'

/** What Claude Code hooks send Memdir on stdin, and what a hook hands a running app, as schemas. */

const nonEmpty = () => v.pipe(v.string(), v.minLength(1))

/** Fields every Claude Code hook gets on stdin; unknown fields (newer clients) are kept, not refused. */
const hookBase = {
  session_id: nonEmpty(),
  transcript_path: nonEmpty(),
  cwd: nonEmpty(),
}

export const UserPromptSubmitInput = looseObject({
  ...hookBase,
  hook_event_name: v.literal('UserPromptSubmit'),
  prompt: v.string(),
  /**
   * Not the client's: Memdir's hook process adds them (agents/hooks/client-process.ts). The client
   * process that runs the hook, and at a forked session's first prompt the transcript of the
   * session it was forked from.
   */
  memdir_client: v.optional(v.string()),
  memdir_fork_of: v.optional(v.string()),
})

export const TurnEndInput = looseObject({
  ...hookBase,
  hook_event_name: v.picklist(['Stop', 'SubagentStop', 'SessionEnd']),
  stop_hook_active: v.optional(v.boolean()),
  reason: v.optional(v.string()),
})

export type UserPromptSubmitHook = v.InferOutput<typeof UserPromptSubmitInput>
export type TurnEndHook = v.InferOutput<typeof TurnEndInput>

/** What a UserPromptSubmit hook prints to add context to the prompt. */
export interface PromptHookOutput {
  hookSpecificOutput: { hookEventName: 'UserPromptSubmit'; additionalContext: string }
}

const ClientMemoryEnv = v.optional(
  v.strictObject(
    Object.fromEntries(CLIENT_MEMORY_ENV.map((k) => [k, v.optional(v.string())])) as {
      [K in (typeof CLIENT_MEMORY_ENV)[number]]: v.OptionalSchema<v.StringSchema<undefined>, undefined>
    },
  ),
)

/** A job a hook hands to a running app over its local socket (`ping`: is anyone there?). */
export const AgentJobSchema = v.variant('type', [
  v.strictObject({
    type: v.literal('turn-ended'),
    projectRoot: nonEmpty(),
    sessionId: nonEmpty(),
    transcriptPath: nonEmpty(),
    event: v.string(),
    env: ClientMemoryEnv,
  }),
  v.strictObject({ type: v.literal('ping') }),
  /** A prompt hook asks the running app to recall from its own index (it answers the hook output). */
  v.strictObject({ type: v.literal('prompt'), input: UserPromptSubmitInput, env: ClientMemoryEnv }),
  /** The CLI asks the desktop app for a secret it keeps in the OS keychain. */
  v.strictObject({
    type: v.literal('secret'),
    name: v.picklist(['teamToken', 'apiKey']),
    /** A team token: the server and repo it belongs to (`<server URL>#<owner/repo>`). */
    pair: v.optional(v.string()),
  }),
  /**
   * `memdir list` asks a running app for the newest memories of the memory dir it resolved (the app
   * answers only for the dir it has open, from its watcher-fed index).
   */
  v.strictObject({ type: v.literal('list'), cwd: nonEmpty(), memoryDir: nonEmpty() }),
  /** `memdir recall` with no model configured asks for the offline ranker over the app's index. */
  v.strictObject({
    type: v.literal('recall'),
    cwd: nonEmpty(),
    memoryDir: nonEmpty(),
    query: v.pipe(
      v.string(),
      v.check((q) => q.trim().length > 0, 'the query is empty'),
    ),
    recentTools: v.array(v.string()),
  }),
])
export type AgentJob = v.InferOutput<typeof AgentJobSchema>
