import { findGitRoot } from '../paths/git-root.js'
import { parseMemoryFile } from '../store/frontmatter.js'
import { findMemoryCodeMentions } from './code-mentions.js'
import { GitHistory } from './git-history.js'
import { describePathStaleness, pathStaleness } from './path-staleness.js'

const MAX_PATHS = 8

/**
 * The staleness line recall adds to a memory that names repository paths: "mentions src/app.ts,
 * changed in 14 commits since this memory was saved" (or "which moved to …", "which no longer
 * exists") — the facts and words Health's findings use (path-staleness.ts). Works on the text
 * recall already read; git reads only the commits since the oldest such memory was saved, and
 * only when a recalled memory names paths; nothing when the project is not a git repository.
 */
export async function codeStalenessNotes(
  projectRoot: string,
  memories: readonly { path: string; mtimeMs: number; text: string }[],
): Promise<Map<string, string>> {
  const notes = new Map<string, string>()
  // No `.git` at or above the root: not a repository, and no git process is started to learn it.
  const root = findGitRoot(projectRoot)
  if (root === undefined) return notes
  let budget = MAX_PATHS
  const named = memories.flatMap((m) => {
    if (budget <= 0) return []
    const paths = findMemoryCodeMentions(parseMemoryFile(m.text)).paths.slice(0, budget)
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
  for (const m of named) {
    const stale = pathStaleness(git, projectRoot, m.paths, m.mtimeMs)
    if (stale.length)
      notes.set(
        m.path,
        `Note: this memory ${stale.map((s) => `mentions ${describePathStaleness(s)}`).join('; ')}. Check the code before relying on it.`,
      )
  }
  return notes
}
