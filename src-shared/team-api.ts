import * as z from 'zod/mini'

/** The team memory API (SPEC §9, §10): the shapes both the server and the client check. */
export const TEAM_MEMORY_PATH = '/api/claude_code/team_memory'

const checksum = z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/, 'a "sha256:<hex>" checksum'))

export const TeamMemoryDocumentSchema = z.object({
  organizationId: z.string(),
  repo: z.string(),
  version: z.number(),
  lastModified: z.string(),
  checksum,
  content: z.object({
    entries: z.optional(z.record(z.string(), z.string())),
    entryChecksums: z.record(z.string(), checksum),
  }),
})
export type TeamMemoryDocument = z.infer<typeof TeamMemoryDocumentSchema>

export const TeamMemoryPutBodySchema = z.strictObject({ entries: z.record(z.string(), z.string()) })

export const TeamMemoryPutResultSchema = z.object({ checksum, lastModified: z.string() })
export type TeamMemoryPutResult = z.infer<typeof TeamMemoryPutResultSchema>

export const TooManyEntriesSchema = z.object({
  error: z.object({
    details: z.object({
      error_code: z.literal('team_memory_too_many_entries'),
      max_entries: z.int().check(z.nonnegative()),
      received_entries: z.int().check(z.nonnegative()),
    }),
  }),
})

/** `?repo=owner/name[&view=hashes]` */
export const TeamMemoryQuerySchema = z.object({
  repo: z.string().check(z.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'repo must be owner/name')),
  view: z.optional(z.enum(['hashes'])),
})
