import * as z from 'zod/mini'

/**
 * `~/.memdir/settings.json`, Memdir's own settings (never Claude Code's). Read and written with
 * this one schema; keys it does not know are kept (a newer Memdir may have written them).
 * Written with zod's tree-shakable `zod/mini` API: every CLI start (and every hook) reads it.
 */
export const AppSettingsSchema = z.looseObject({
  teamMemoryEnabled: z.optional(z.boolean()),
  teamUrl: z.optional(z.string()),
  teamToken: z.optional(z.string()),
  teamRepo: z.optional(z.string()),
  extractionEnabled: z.optional(z.boolean()),
  dreamEnabled: z.optional(z.boolean()),
  dreamMinHours: z.optional(z.number().check(z.minimum(0))),
  dreamMinSessions: z.optional(z.int().check(z.minimum(0))),
  apiKey: z.optional(z.string()),
  baseURL: z.optional(z.string()),
  selectorModel: z.optional(z.string()),
  agentModel: z.optional(z.string()),
  reviewMode: z.optional(z.boolean()),
  memoryFormat: z.optional(z.enum(['auto', 'flat', 'nested'])),
  /** Desktop app: closing the window keeps it running in the tray (default on). */
  keepInBackground: z.optional(z.boolean()),
  /** Desktop app: start at login (applied with the OS's login items). */
  startAtLogin: z.optional(z.boolean()),
  /**
   * Where each secret lives instead of this file: `keychain` (encrypted with the OS keychain's key,
   * readable by the desktop app) or `file` (a 0600 file in the secrets folder).
   */
  secrets: z.optional(
    z.looseObject({
      teamToken: z.optional(z.enum(['keychain', 'file'])),
      apiKey: z.optional(z.enum(['keychain', 'file'])),
    }),
  ),
  /** Desktop app: the "closing keeps Memdir running" notification was shown once. */
  backgroundNoticeShown: z.optional(z.boolean()),
})

export type AppSettings = z.infer<typeof AppSettingsSchema>

/**
 * `~/.memdir/workspaces.json`: folders the user opened (most recent first) and the project folder
 * of a memory dir whose transcripts are gone (picked once by the user, then remembered).
 */
export const KnownWorkspacesSchema = z.looseObject({
  recents: z.optional(z.array(z.object({ projectRoot: z.string(), at: z.number() }))),
  roots: z.optional(z.record(z.string(), z.string())),
})

export type KnownWorkspaces = z.infer<typeof KnownWorkspacesSchema>
