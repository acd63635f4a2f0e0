import { join } from 'node:path'
import { ENTRYPOINT_NAME, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { readIfExists } from '../../core/store/atomic-write.js'
import { truncateEntrypointContent } from '../../core/store/truncate.js'
import { type CliIO, printJson } from '../io.js'

export async function indexCommand(ctx: ProjectContext, io: CliIO, json: boolean): Promise<number> {
  const path = join(getAutoMemPath(ctx), ENTRYPOINT_NAME)
  const raw = await readIfExists(path)
  const t = truncateEntrypointContent(raw ?? '')
  if (json) {
    printJson(io, { path, exists: raw !== null, ...t })
    return 0
  }
  io.stdout(raw === null || t.content === '' ? `MEMORY.md is empty (${path})\n` : t.content + '\n')
  return 0
}
