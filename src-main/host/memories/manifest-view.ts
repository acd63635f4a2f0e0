import { formatMemoryManifest } from '../../core/store/manifest.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'

/** The manifest of the newest 200 memories, as recall and extraction see it (`memdir list`). */
export async function manifestView(
  memoryDir: string,
  scan: (memoryDir: string) => Promise<readonly MemoryHeader[]>,
): Promise<{ memories: readonly MemoryHeader[]; manifest: string }> {
  const memories = await scan(memoryDir)
  return { memories, manifest: formatMemoryManifest(memories) }
}
