import { checkRelativeKey, PathTraversalError, resolveContainedPath } from '../store/contained-path.js'

export { PathTraversalError }

/** A team-memory key: a `/`-separated path relative to team/, free of traversal tricks. */
export function validateTeamMemKey(key: string): string {
  checkRelativeKey(key)
  if (key.split('/').some((seg) => seg === '' || seg === '.'))
    throw new PathTraversalError(`malformed key: ${key}`)
  return key
}

/**
 * Where a key may be written: inside the real team dir even through symlinks. Dangling
 * symlinks and loops raise PathTraversalError as well.
 */
export async function validateTeamMemWritePath(teamDir: string, key: string): Promise<string> {
  validateTeamMemKey(key)
  return resolveContainedPath(teamDir, key)
}
