import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { manifestView } from '../../host/memories/manifest-view.js'
import { cachedScan } from '../../host/memories/memory-caches.js'
import { type CliIO, printJson } from '../io.js'

export async function listCommand(ctx: ProjectContext, io: CliIO, json: boolean): Promise<number> {
  const dir = getAutoMemPath(ctx)
  const { memories, manifest } = await manifestView(dir, cachedScan(ctx))
  if (json) {
    printJson(
      io,
      memories.map((m) => ({
        filename: m.filename,
        type: m.type ?? null,
        description: m.description,
        mtimeMs: m.mtimeMs,
      })),
    )
  } else {
    io.stdout(memories.length ? manifest + '\n' : `no memories in ${dir}\n`)
  }
  return 0
}
