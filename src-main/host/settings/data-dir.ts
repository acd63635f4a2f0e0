import { join } from 'node:path'
import { resolveHomeDir, type ProjectContext } from '../../core/paths/context.js'

/** Memdir's own data (snapshots, history, app settings): never inside a memory dir. */
export function getAppDataDir(ctx: ProjectContext): string {
  return ctx.env.MEMDIR_DATA_DIR || join(resolveHomeDir(ctx), '.memdir')
}
