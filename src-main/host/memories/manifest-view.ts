import { formatMemoryManifest } from '../../core/store/manifest.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'

/** One line of `memdir list --json`. */
export interface ListedMemory {
  filename: string
  type: string | null
  description: string | null
  mtimeMs: number
}

/** What `memdir list` prints, as plain data: a running app answers the CLI with it over its socket. */
export interface ManifestView {
  memories: ListedMemory[]
  manifest: string
}

/** The manifest of the newest 200 memories, as recall and extraction see it (`memdir list`). */
export async function manifestView(
  memoryDir: string,
  scan: (memoryDir: string) => Promise<readonly MemoryHeader[]>,
): Promise<ManifestView> {
  const memories = await scan(memoryDir)
  return {
    memories: memories.map((m) => ({
      filename: m.filename,
      type: m.type ?? null,
      description: m.description,
      mtimeMs: m.mtimeMs,
    })),
    manifest: formatMemoryManifest(memories),
  }
}
