import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { type ManifestView, manifestView } from '../../host/memories/manifest-view.js'
import { cachedScan } from '../../host/memories/memory-caches.js'
import { getAppDataDir } from '../../host/settings/app-data.js'
import { type CliIO, printJson } from '../io.js'
import { answerFromRunningApp } from './ask-running-app.js'

export async function listCommand(ctx: ProjectContext, io: CliIO, json: boolean): Promise<number> {
  const dir = getAutoMemPath(ctx)
  const { memories, manifest } =
    (await answerFromRunningApp<ManifestView>(
      { type: 'list', cwd: ctx.projectRoot, memoryDir: dir },
      getAppDataDir(ctx),
    )) ?? (await manifestView(dir, cachedScan(ctx)))
  if (json) printJson(io, memories)
  else io.stdout(memories.length ? manifest + '\n' : `no memories in ${dir}\n`)
  return 0
}
