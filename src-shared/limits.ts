import { count } from './words.js'
/**
 * How large one memory may be, wherever it is written (the editor, MCP, a review approval): 1 MiB
 * of UTF-8, the team server's own body limit. A memory is one fact and a few lines; anything near
 * this size is a paste, not a memory.
 */
export const MAX_MEMORY_BYTES = 1024 * 1024

/**
 * The largest file in a memory dir that is opened as a memory (the editor, MCP `memory_read`, an
 * update or rename): room for one written before the limit, not for a log someone dropped there,
 * which would be read whole into the app and sent whole to an agent. Deleting it still works.
 */
export const MAX_OPENED_MEMORY_BYTES = 8 * MAX_MEMORY_BYTES

/** `1.0 MiB`, `20.0 MB` — sizes in messages about these limits. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`
  return count(n, 'byte')
}

/**
 * The search box lists at most this many hits, best first; when it lists exactly this many, more
 * memories may match (the list says "500+").
 */
export const MAX_SEARCH_HITS = 500
