import { isFsError, rethrowUnless } from '../../../src-shared/errors.js'
import { findGitRoot } from '../paths/git-root.js'
import { parseMemoryFile } from '../store/frontmatter.js'
import { findMemoryCodeMentions } from './code-mentions.js'
import { GitHistory } from './git-history.js'
import { describePathStaleness, mayNameRepoFile, pathStaleness, stalenessSince } from './path-staleness.js'

const MAX_PATHS = 8

/** What a recalled memory's staleness is judged against: the project's code, and the user's marks. */
export interface StalenessBasis {
  /** The project's folder (its git repository is read). */
  projectRoot: string
  /** When the user last marked each memory, by its path, as still true (history's `verify`). */
  verifiedTimes?: () => Promise<ReadonlyMap<string, number>>
}

/**
 * The staleness line recall adds to a memory that names repository paths: "mentions src/app.ts,
 * changed in 14 commits since this memory was saved" (or "which moved to …", "which no longer
 * exists") — the facts and words Health's findings use (path-staleness.ts). Works on the text
 * recall already read; git reads only the commits since the oldest such memory was saved, and
 * only when a recalled memory names paths; nothing when the project is not a git repository. A
 * memory the user marked as still true counts from that mark, as Health does.
 */
export async function codeStalenessNotes(
  basis: StalenessBasis,
  memories: readonly { path: string; mtimeMs: number; text: string }[],
): Promise<Map<string, string>> {
  const { projectRoot } = basis
  const notes = new Map<string, string>()
  // No `.git` at or above the root: not a repository, and no git process is started to learn it.
  const root = findGitRoot(projectRoot)
  if (root === undefined) return notes
  let budget = MAX_PATHS
  const named = memories.flatMap((m) => {
    if (budget <= 0) return []
    // A path outside the repository costs no git process and no share of the budget.
    const paths = findMemoryCodeMentions(parseMemoryFile(m.text))
      .paths.filter((p) => mayNameRepoFile(root, p))
      .slice(0, budget)
    budget -= paths.length
    return paths.length ? [{ ...m, paths }] : []
  })
  if (!named.length) return notes
  // A prompt never waits long on git: past 5 s a call fails and the notes are left out.
  const git = new GitHistory(root, 50_000, Math.min(...named.map((m) => m.mtimeMs)), 5_000)
  if (
    !(await git.refresh().then(
      () => git.available,
      () => false,
    ))
  )
    return notes
  let verified: ReadonlyMap<string, number> | undefined
  for (const m of named) {
    let stale = pathStaleness(git, projectRoot, m.paths, m.mtimeMs)
    // Only a memory that looks stale needs the user's marks: most prompts never read them.
    if (stale.length && basis.verifiedTimes) {
      verified ??= await basis.verifiedTimes().catch((e: unknown) => {
        rethrowUnless(isFsError(e), e)
        return new Map<string, number>()
      })
      const at = verified.get(m.path)
      if (at !== undefined && at > m.mtimeMs)
        stale = pathStaleness(git, projectRoot, m.paths, stalenessSince(m.mtimeMs, at))
    }
    if (stale.length)
      notes.set(
        m.path,
        `Note: this memory ${stale.map((s) => `mentions ${describePathStaleness(s)}`).join('; ')}. Check the code before relying on it.`,
      )
  }
  return notes
}
