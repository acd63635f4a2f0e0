import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { formatMemoryManifest } from '../../core/store/manifest.js'
import { scanMemoryFiles } from '../../core/store/scan.js'
import { type CliIO, printJson } from '../io.js'

export async function listCommand(ctx: ProjectContext, io: CliIO, json: boolean): Promise<number> {
  const memories = await scanMemoryFiles(getAutoMemPath(ctx))
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
    io.stdout(
      memories.length ? formatMemoryManifest(memories) + '\n' : `no memories in ${getAutoMemPath(ctx)}\n`,
    )
  }
  return 0
}
