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
})

export type AppSettings = z.infer<typeof AppSettingsSchema>
