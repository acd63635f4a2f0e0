import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { indexView } from '../../host/memories/index-view.js'
import { type CliIO, printJson } from '../io.js'

export async function indexCommand(ctx: ProjectContext, io: CliIO, json: boolean): Promise<number> {
  const v = await indexView(getAutoMemPath(ctx))
  if (json) {
    printJson(io, v)
    return 0
  }
  if (v.loaded !== '') io.stdout(v.loaded + '\n')
  else io.stdout(v.exists ? `MEMORY.md is empty (${v.path})\n` : `no MEMORY.md yet (${v.path})\n`)
  return 0
}
