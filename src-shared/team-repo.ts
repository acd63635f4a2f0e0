/**
 * Which repo a project's team memory belongs to: `owner/name`. The settings page, `memdir secret
 * set --repo`, MEMDIR_TEAM_REPO, `team-server token add` and the server's `?repo=` all ask this one
 * rule, so a repo one of them refuses is never sent or stored by another.
 */

/** GitHub's longest owner (39) and name (100), with room for other forges. */
export const MAX_TEAM_REPO_CHARS = 200

/** Why `repo` cannot name a team repo, or undefined when it can. */
export function teamRepoProblem(repo: string): string | undefined {
  const shown = JSON.stringify(repo.length > 100 ? `${repo.slice(0, 100)}…` : repo)
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo))
    return `${shown} is not owner/name (letters, digits, "_", "." and "-" on each side of one "/")`
  if (repo.split('/').some((part) => part === '.' || part === '..'))
    return `${shown}: "." and ".." name no owner or repo`
  if (repo.length > MAX_TEAM_REPO_CHARS)
    return `the repo name is ${repo.length} characters long; it may be at most ${MAX_TEAM_REPO_CHARS}`
  return undefined
}
