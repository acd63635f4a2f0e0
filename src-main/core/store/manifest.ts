import type { MemoryHeader } from './scan.js'

/** `- [type] path.md (ISO mtime): description` — one line per memory (SPEC §5). */
export function formatMemoryManifest(memories: readonly MemoryHeader[]): string {
  return memories
    .map((m) => {
      const tag = m.type ? `[${m.type}] ` : ''
      const ts = new Date(m.mtimeMs).toISOString()
      return m.description
        ? `- ${tag}${m.filename} (${ts}): ${m.description}`
        : `- ${tag}${m.filename} (${ts})`
    })
    .join('\n')
}
