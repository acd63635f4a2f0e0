import { checkMemoryName } from '../../../src-shared/memory-names.js'
import { PathTraversalError, resolveContainedPath } from '../store/contained-path.js'

export { PathTraversalError }

/**
 * A team-memory key: a path relative to team/ that passes the one memory-name rule
 * (src-shared/memory-names.ts). The client (pull and push), the team server and MCP use that rule.
 */
export function validateTeamMemKey(key: string): string {
  return checkMemoryName(key)
}

/**
 * Where a key may be written: inside the real team dir even through symlinks. Dangling
 * symlinks and loops raise PathTraversalError as well.
 */
export async function validateTeamMemWritePath(teamDir: string, key: string): Promise<string> {
  validateTeamMemKey(key)
  return resolveContainedPath(teamDir, key)
}
