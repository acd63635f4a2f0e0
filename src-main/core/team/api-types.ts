/** The team memory API (SPEC §9, §10), shared by the client and src-server. */
export const TEAM_MEMORY_PATH = '/api/claude_code/team_memory'

export interface TeamMemoryDocument {
  organizationId: string
  repo: string
  version: number
  lastModified: string
  checksum: string
  content: { entries?: Record<string, string>; entryChecksums: Record<string, string> }
}

export interface TeamMemoryPutResult {
  checksum: string
  lastModified: string
}

export interface TooManyEntriesError {
  error: {
    details: { error_code: 'team_memory_too_many_entries'; max_entries: number; received_entries: number }
  }
}
