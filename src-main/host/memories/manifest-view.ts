import { formatMemoryManifest } from '../../core/store/manifest.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import type { HeaderCache } from '../../core/store/header-cache.js'
import { scanMemoryFiles } from '../../core/store/scan.js'

/** The manifest of the newest 200 memories, as recall and extraction see it (`memdir list`). */
export async function manifestView(
  memoryDir: string,
  opts: { headerCache?: HeaderCache } = {},
): Promise<{ memories: MemoryHeader[]; manifest: string }> {
  const memories = await scanMemoryFiles(memoryDir, { headerCache: opts.headerCache })
  return { memories, manifest: formatMemoryManifest(memories) }
}
