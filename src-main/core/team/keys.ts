import { checkRelativeKey, PathTraversalError, resolveContainedPath } from '../store/contained-path.js'

export { PathTraversalError }

// Control characters (terminal escapes among them) and invisible or direction-changing ones: a key
// becomes a file name on every client and is printed in terminals.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/

/**
 * A team-memory key: a `/`-separated path relative to team/, free of traversal tricks and of
 * control or invisible characters. The client (pull and push) and the team server use this one check.
 */
export function validateTeamMemKey(key: string): string {
  if (UNSAFE_CHARS.test(key))
    throw new PathTraversalError(`key contains a control or invisible character: ${JSON.stringify(key)}`)
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
