import { homedir } from 'node:os'
import { isAbsolute, join, relative, sep } from 'node:path'
import { count } from '../../../src-shared/words.js'
import type { Commit, GitHistory } from './git-history.js'

/**
 * A path a memory names, as git sees it now against when the memory was saved. `path` and
 * `movedTo` are written as the memory wrote the path (relative to the project, the repository, or
 * absolute), so a message quotes the memory and a fix can replace one with the other.
 */
export type PathStaleness =
  | { path: string; state: 'changed'; commits: Commit[] }
  | { path: string; state: 'gone'; movedTo?: string; commit?: Commit }

/** A path with this many commits since the memory was saved (or marked still true) is stale. */
export const STALE_AFTER_COMMITS = 3

/**
 * Where a memory's staleness clock starts: its last save, or the user's later mark that it is still
 * true (history's `verify`). Health's findings and recall's note both count from here.
 */
export function stalenessSince(mtimeMs: number, verifiedAt: number | undefined): number {
  return Math.max(mtimeMs, verifiedAt ?? 0)
}

/** A mention from the home dir (`~/…`) as an absolute path; any other as written. */
const expandHome = (mention: string) =>
  HOME_PATH.test(mention) ? join(homedir(), mention.slice(2)) : mention
const HOME_PATH = /^~[/\\]/
/** A Windows path read where `\` is no separator: a team memory written on Windows, read on macOS or Linux. */
const windowsWritten = (mention: string) => sep === '/' && mention.includes('\\')

/**
 * Whether a mention can name a file of the repository at `root`: a relative one may; an absolute
 * or `~/` one (`/api/users` in a memory about routes) only when it is inside the repository.
 */
export function mayNameRepoFile(root: string, mention: string): boolean {
  if (windowsWritten(mention)) return !/^[A-Za-z]:/.test(mention) && mayNameRepoFile(root, toPosix(mention))
  const abs = expandHome(mention)
  return !isAbsolute(abs) || below(root, abs) !== undefined
}

/** `abs` relative to `base` when it is inside it (not `base` itself), else undefined. */
function below(base: string, abs: string): string | undefined {
  const rel = relative(base, abs)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : undefined
}

const toPosix = (p: string) => p.split('\\').join('/')

/**
 * A mention as a repository-relative path: an absolute one (or one in the home dir, `~/…`)
 * relative to the repository, a relative one as the project's (its folder may be
 * below the repository's root), else as the repository's; one written on Windows as its `/` form,
 * and written back with `\`.
 */
function repoPathOf(
  git: GitHistory,
  projectRoot: string,
  mention: string,
): { path: string; asWritten: (repoPath: string) => string } | undefined {
  // A dir is named with its trailing `/`, which join and relative drop.
  const slash = (p: string) => (p.endsWith('/') ? '/' : '')
  const inRepo = (abs: string) => {
    const rel = below(git.root, abs)
    return rel === undefined ? undefined : toPosix(rel) + slash(mention)
  }
  if (windowsWritten(mention)) {
    const at = repoPathOf(git, projectRoot, toPosix(mention))
    return at && { path: at.path, asWritten: (p) => at.asWritten(p).split('/').join('\\') }
  }
  if (HOME_PATH.test(mention)) {
    const home = homedir()
    const at = repoPathOf(git, projectRoot, expandHome(mention) + slash(mention))
    return (
      at && { path: at.path, asWritten: (p) => '~/' + toPosix(relative(home, at.asWritten(p))) + slash(p) }
    )
  }
  if (isAbsolute(mention)) {
    const path = inRepo(mention)
    return path ? { path, asWritten: (p) => join(git.root, p) + slash(p) } : undefined
  }
  const fromProject = inRepo(join(projectRoot, mention))
  const projectFrame = (p: string) => toPosix(relative(projectRoot, join(git.root, p))) + slash(p)
  if (fromProject && git.known(fromProject)) return { path: fromProject, asWritten: projectFrame }
  if (git.known(mention)) return { path: mention, asWritten: (p) => p }
  return fromProject ? { path: fromProject, asWritten: projectFrame } : undefined
}

/**
 * What git says of each path: changed in `minCommits` or more commits since `sinceMs`, or gone
 * (and where it went) since then. A path gone before the memory was saved, or never in git, says
 * nothing. Health's findings and recall's note are both worded from this.
 */
export function pathStaleness(
  git: GitHistory,
  projectRoot: string,
  mentions: readonly string[],
  sinceMs: number,
  minCommits = STALE_AFTER_COMMITS,
): PathStaleness[] {
  const out: PathStaleness[] = []
  for (const raw of mentions) {
    const at = repoPathOf(git, projectRoot, raw)
    if (!at || !git.known(at.path)) continue
    if (git.exists(at.path)) {
      const commits = git.changesSince(at.path, sinceMs)
      if (commits.length >= minCommits) out.push({ path: raw, state: 'changed', commits })
      continue
    }
    const where = git.whereIs(at.path)
    if (where.commit && where.commit.time <= sinceMs) continue // gone before the memory was saved
    out.push({
      path: raw,
      state: 'gone',
      ...(where.movedTo ? { movedTo: at.asWritten(where.movedTo) } : {}),
      ...(where.commit ? { commit: where.commit } : {}),
    })
  }
  return out
}

/** "src/app.ts, changed in 14 commits since this memory was saved" / "src/db.ts, which moved to src/database.ts". */
export function describePathStaleness(s: PathStaleness): string {
  if (s.state === 'changed')
    return `${s.path}, changed in ${count(s.commits.length, 'commit')} since this memory was saved`
  return s.movedTo ? `${s.path}, which moved to ${s.movedTo}` : `${s.path}, which no longer exists`
}
