import * as v from 'valibot'
import { object, record, strictObject } from './schema-common.js'
import { teamRepoProblem } from './team-repo.js'

/** The team memory API (SPEC §9, §10): the shapes both the server and the client check. */
export const TEAM_MEMORY_PATH = '/api/claude_code/team_memory'

/** The largest team entry: the client never uploads a bigger file, and the server refuses one. */
export const MAX_TEAM_FILE_BYTES = 250_000

/** The `error_code` of each refusal the server explains in `error.details` (besides the entry limit). */
export const TEAM_ERROR_CODES = {
  invalidKey: 'team_memory_invalid_key',
  keyCollision: 'team_memory_key_collision',
  secret: 'team_memory_secret',
  entryTooLarge: 'team_memory_entry_too_large',
  notText: 'team_memory_not_text',
  linkOutside: 'team_memory_link_outside',
  noSuchKey: 'team_memory_no_such_key',
} as const

const checksum = v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'a "sha256:<hex>" checksum'))
const count = v.pipe(v.number(), v.integer(), v.minValue(0))

export const TeamMemoryDocumentSchema = object({
  organizationId: v.string(),
  repo: v.string(),
  version: v.number(),
  lastModified: v.string(),
  checksum,
  content: object({
    entries: v.optional(record(v.string())),
    entryChecksums: record(checksum),
  }),
})
export type TeamMemoryDocument = v.InferOutput<typeof TeamMemoryDocumentSchema>

export const TeamMemoryPutBodySchema = strictObject({ entries: record(v.string()) })

export const TeamMemoryPutResultSchema = object({ checksum, lastModified: v.string() })
export type TeamMemoryPutResult = v.InferOutput<typeof TeamMemoryPutResultSchema>

export const TooManyEntriesSchema = object({
  error: object({
    details: object({
      error_code: v.literal('team_memory_too_many_entries'),
      max_entries: count,
      received_entries: count,
      /** How many keys the repo holds now (servers before this field: absent). */
      held_entries: v.optional(count),
    }),
  }),
})

/** Any refusal: `{error: {message, details?: {error_code, …}}}`. */
export const TeamErrorBodySchema = object({
  error: object({
    message: v.string(),
    details: v.optional(v.looseObject({ error_code: v.optional(v.string()) })),
  }),
})

export const TeamMemoryDeleteResultSchema = object({
  checksum,
  lastModified: v.string(),
  deleted: v.array(v.string()),
})

/** `?repo=owner/name[&view=hashes]` */
export const TeamMemoryQuerySchema = object({
  repo: v.pipe(
    v.string(),
    v.check(
      (repo) => teamRepoProblem(repo) === undefined,
      (issue) => `repo ${teamRepoProblem(String(issue.input))}`,
    ),
  ),
  view: v.optional(v.picklist(['hashes'])),
  /** DELETE: the key to remove. */
  key: v.optional(v.string()),
})
