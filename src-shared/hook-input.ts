import * as z from 'zod/mini'

/**
 * What Claude Code hooks send Memdir on stdin, and what a hook hands a running app, as schemas.
 * `zod/mini` (zod's tree-shakable API): `memdir hook prompt` runs before every prompt, so it loads
 * as little as it can.
 */

/** Fields every Claude Code hook gets on stdin; unknown fields (newer clients) are kept, not refused. */
const nonEmpty = () => z.string().check(z.minLength(1))
const hookBase = {
  session_id: nonEmpty(),
  transcript_path: nonEmpty(),
  cwd: nonEmpty(),
}

export const UserPromptSubmitInput = z.looseObject({
  ...hookBase,
  hook_event_name: z.literal('UserPromptSubmit'),
  prompt: z.string(),
})

export const TurnEndInput = z.looseObject({
  ...hookBase,
  hook_event_name: z.enum(['Stop', 'SubagentStop', 'SessionEnd']),
  stop_hook_active: z.optional(z.boolean()),
  reason: z.optional(z.string()),
})

export type UserPromptSubmitHook = z.infer<typeof UserPromptSubmitInput>
export type TurnEndHook = z.infer<typeof TurnEndInput>

/** What a UserPromptSubmit hook prints to add context to the prompt. */
export interface PromptHookOutput {
  hookSpecificOutput: { hookEventName: 'UserPromptSubmit'; additionalContext: string }
}

/** A job a hook hands to a running app over its local socket (`ping`: is anyone there?). */
export const AgentJobSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('turn-ended'),
    projectRoot: nonEmpty(),
    sessionId: nonEmpty(),
    transcriptPath: nonEmpty(),
    event: z.string(),
  }),
  z.strictObject({ type: z.literal('ping') }),
  /** The CLI asks the desktop app for a secret it keeps in the OS keychain. */
  z.strictObject({ type: z.literal('secret'), name: z.enum(['teamToken', 'apiKey']) }),
])
export type AgentJob = z.infer<typeof AgentJobSchema>
