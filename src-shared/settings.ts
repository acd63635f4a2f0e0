import { z } from 'zod'

/**
 * `~/.memdir/settings.json`, Memdir's own settings (never Claude Code's). Read and written with
 * this one schema; keys it does not know are kept (a newer Memdir may have written them).
 */
export const AppSettingsSchema = z.looseObject({
  teamMemoryEnabled: z.boolean().optional(),
  teamUrl: z.string().optional(),
  teamToken: z.string().optional(),
  teamRepo: z.string().optional(),
  extractionEnabled: z.boolean().optional(),
  dreamEnabled: z.boolean().optional(),
  dreamMinHours: z.number().min(0).optional(),
  dreamMinSessions: z.number().int().min(0).optional(),
  apiKey: z.string().optional(),
  baseURL: z.string().optional(),
  selectorModel: z.string().optional(),
  agentModel: z.string().optional(),
  reviewMode: z.boolean().optional(),
  memoryFormat: z.enum(['auto', 'flat', 'nested']).optional(),
})

export type AppSettings = z.infer<typeof AppSettingsSchema>
