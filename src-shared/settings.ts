import * as v from 'valibot'
import { looseObject, object, record } from './schema-common.js'

/**
 * `~/.memdir/settings.json`, Memdir's own settings (never Claude Code's). Read and written with
 * this one schema; keys it does not know are kept (a newer Memdir may have written them).
 * Every CLI start (and every hook) reads it.
 */
const secretHome = v.optional(v.picklist(['keychain', 'file']))
const whole = v.pipe(v.number(), v.integer(), v.minValue(0))

/**
 * What one project keeps for itself, keyed by its memory dir: the team server and repo its team/
 * syncs with. Another project never sees them (its repo defaults to its own git origin).
 */
export const ProjectValuesSchema = looseObject({
  teamUrl: v.optional(v.string()),
  teamRepo: v.optional(v.string()),
})
export type ProjectValues = v.InferOutput<typeof ProjectValuesSchema>

export const AppSettingsSchema = looseObject({
  teamMemoryEnabled: v.optional(v.boolean()),
  /** Per project (keyed by memory dir, with its trailing separator). */
  projects: v.optional(record(ProjectValuesSchema)),
  /** Before team settings were per project: moved into `projects` on the first start that sees them. */
  teamUrl: v.optional(v.string()),
  /** Plain, from an older Memdir: moved out of this file on the first start that sees it. */
  teamToken: v.optional(v.string()),
  teamRepo: v.optional(v.string()),
  extractionEnabled: v.optional(v.boolean()),
  dreamEnabled: v.optional(v.boolean()),
  dreamMinHours: v.optional(v.pipe(v.number(), v.minValue(0))),
  dreamMinSessions: v.optional(whole),
  apiKey: v.optional(v.string()),
  baseURL: v.optional(v.string()),
  selectorModel: v.optional(v.string()),
  agentModel: v.optional(v.string()),
  reviewMode: v.optional(v.boolean()),
  memoryFormat: v.optional(v.picklist(['auto', 'flat', 'nested'])),
  /** Desktop app: closing the window keeps it running in the tray (default on). */
  keepInBackground: v.optional(v.boolean()),
  /** Desktop app: start at login (applied with the OS's login items). */
  startAtLogin: v.optional(v.boolean()),
  /**
   * Where each secret lives instead of this file: `keychain` (encrypted with the OS keychain's key,
   * readable by the desktop app) or `file` (a 0600 file in the secrets folder). A team token
   * belongs to one server and repo: `teamTokens` is keyed by `<server URL>#<owner/repo>`.
   * `teamToken` is the one token of an older Memdir, moved to `teamTokens` on first start.
   */
  secrets: v.optional(
    looseObject({ teamToken: secretHome, apiKey: secretHome, teamTokens: v.optional(record(secretHome)) }),
  ),
  /** Desktop app: the "closing keeps Memdir running" notification was shown once. */
  backgroundNoticeShown: v.optional(v.boolean()),
})

export type AppSettings = v.InferOutput<typeof AppSettingsSchema>

/**
 * `~/.memdir/workspaces.json`: folders the user opened (most recent first) and the project folder
 * of a memory dir whose transcripts are gone (picked once by the user, then remembered).
 */
export const KnownWorkspacesSchema = looseObject({
  recents: v.optional(v.array(object({ projectRoot: v.string(), at: v.number() }))),
  roots: v.optional(record(v.string())),
})

export type KnownWorkspaces = v.InferOutput<typeof KnownWorkspacesSchema>
