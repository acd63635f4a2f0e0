import * as z from 'zod/mini'
import { MEMORY_TYPES } from './contract.js'

/**
 * The arguments of Memdir's MCP tools, declared once as schemas: the MCP SDK validates each call
 * with them (and publishes them as the tools' JSON Schemas) before a handler runs. These are zod
 * schemas, unlike every other schema here (valibot, see schema-common.ts): the SDK takes zod.
 */

const about = (text: string) => z.describe(text)

const memoryPath = z
  .string()
  .check(
    z.minLength(1, 'a memory file path relative to the memory dir, e.g. "testing.md" or "team/deploy.md"'),
    about('Path of the memory file relative to the memory dir, e.g. "testing.md" or "team/deploy.md"'),
  )

const contentHash = z
  .string()
  .check(z.regex(/^[0-9a-f]{64}$/, 'the sha256 hash memory_read returned (64 hex digits)'))

export const McpToolInput = {
  memory_list: z.strictObject({
    scope: z
      ._default(z.enum(['all', 'private', 'team']), 'all')
      .check(about('Which memories: all (default), private only, or the team/ folder only')),
    offset: z
      ._default(z.int().check(z.gte(0, 'a count of memories to skip: 0 or more')), 0)
      .check(about('How many of the newest to skip: the next_offset of the page before (default 0)')),
  }),
  memory_read: z.strictObject({
    path: memoryPath,
    offset: z
      ._default(z.int().check(z.gte(0, 'a count of body characters to skip: 0 or more')), 0)
      .check(about('Where the body page starts: the next_offset of the page before (default 0)')),
  }),
  memory_search: z.strictObject({
    query: z
      .string()
      .check(z.minLength(1, 'what you are working on, in a few words'), about('What you are working on')),
    recent_tools: z
      ._default(z.array(z.string()), [])
      .check(about('Tools you used successfully since the last user message (their usage docs are skipped)')),
  }),
  memory_write: z.strictObject({
    path: z
      .optional(memoryPath)
      .check(about('Existing memory to update, or the file to create; default: a file named after `name`')),
    name: z.string().check(z.minLength(1, 'a short name for the memory')),
    description: z
      .string()
      .check(
        z.minLength(1, 'a one-line description: it is what recall matches on'),
        about('One line: what this memory is for. Recall matches on it.'),
      ),
    type: z
      .optional(z.enum(MEMORY_TYPES))
      .check(
        about(
          'user (about the user), feedback (how to work), project (facts about this project), reference (where to find things)',
        ),
      ),
    body: z.string().check(about('The memory itself, in Markdown')),
    scope: z
      ._default(z.enum(['private', 'team']), 'private')
      .check(about('private (default) or team: team memories are shared with the team through sync')),
    expected_hash: z
      .optional(contentHash)
      .check(about('Required to update an existing memory: the hash memory_read returned')),
    reason: z.optional(z.string()).check(about('Why: shown to the user when the write waits for review')),
  }),
  memory_delete: z.strictObject({
    path: memoryPath,
    expected_hash: contentHash.check(
      about('The hash memory_read returned: the delete is refused if it changed'),
    ),
    reason: z.optional(z.string()),
  }),
} as const

export type McpToolName = keyof typeof McpToolInput
export type McpArgs<T extends McpToolName> = z.output<(typeof McpToolInput)[T]>
