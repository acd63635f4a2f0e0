import { join } from 'node:path'
import { isMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { KeyTwins } from '../../../src-shared/key-twins.js'
import { TEAM_DIRNAME } from '../paths/team-agent-paths.js'
import { walkFiles } from './walk-files.js'

/**
 * Why a new team memory at `relPath` (`team/…`) could not be synced: its key cannot live beside
 * a team file already there on macOS or Windows (src-shared/key-twins.ts), so the team client would
 * never push it and the server would refuse it. `replacing` is the file a rename moves away.
 */
export async function teamTwinProblem(
  memoryDir: string,
  relPath: string,
  replacing?: string,
): Promise<string | undefined> {
  const prefix = `${TEAM_DIRNAME}/`
  if (!relPath.startsWith(prefix)) return undefined
  let held: string[]
  try {
    held = await walkFiles(join(memoryDir, TEAM_DIRNAME))
  } catch (e) {
    rethrowUnless(isMissing(e), e)
    return undefined
  }
  const gone = replacing?.startsWith(prefix) ? replacing.slice(prefix.length) : undefined
  const key = relPath.slice(prefix.length)
  const twin = new KeyTwins(held.filter((k) => k !== gone && k !== key)).twinOf(key)
  return twin && `${relPath} cannot join team/${twin.existing}: ${twin.why}, and team memory syncs to them`
}
