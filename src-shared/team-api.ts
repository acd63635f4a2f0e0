import * as v from 'valibot'
import { object, record, strictObject } from './schema-common.js'

/** The team memory API (SPEC §9, §10): the shapes both the server and the client check. */
export const TEAM_MEMORY_PATH = '/api/claude_code/team_memory'

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
    }),
  }),
})

/** `?repo=owner/name[&view=hashes]` */
export const TeamMemoryQuerySchema = object({
  repo: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'repo must be owner/name')),
  view: v.optional(v.picklist(['hashes'])),
})
