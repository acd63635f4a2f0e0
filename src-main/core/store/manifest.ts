import { oneLine } from '../../../src-shared/unicode.js'
import type { MemoryHeader } from './scan.js'

/**
 * `- [type] path.md (ISO mtime): description` — one line per memory (SPEC §5), whatever its file
 * is named (a line break in its name is shown escaped) and however its description was written
 * (a YAML block's lines joined with spaces).
 */
export function formatMemoryManifest(memories: readonly MemoryHeader[]): string {
  return memories
    .map((m) => {
      const tag = m.type ? `[${m.type}] ` : ''
      const ts = new Date(m.mtimeMs).toISOString()
      const name = oneLine(m.filename)
      const description = m.description && oneLine(m.description.replace(/[ \t]*[\r\n]+[ \t]*/g, ' ').trim())
      return description ? `- ${tag}${name} (${ts}): ${description}` : `- ${tag}${name} (${ts})`
    })
    .join('\n')
}
