import { isAbsolute, relative } from 'node:path'
import { findGitRoot } from '../paths/git-root.js'
import { bodyOf } from '../store/frontmatter.js'
import { findCodeMentions } from './code-mentions.js'
import { git } from './git-history.js'

const MAX_PATHS = 8

/** A git answer, or undefined when git fails (not a repository) or takes over 5 s. */
const ask = (root: string, args: string[]) => git(root, args, 5_000).catch(() => undefined)

/**
 * The staleness line recall adds to a memory that names repository paths: "mentions src/app.ts,
 * changed in 14 commits since this memory was saved" (or "which no longer exists"). Works on the
 * text recall already read; a few git calls per recalled memory, only for memories that name
 * paths; nothing when the project is not a git repository.
 */
export async function codeStalenessNotes(
  projectRoot: string,
  memories: readonly { path: string; mtimeMs: number; text: string }[],
): Promise<Map<string, string>> {
  const notes = new Map<string, string>()
  // No `.git` at or above the root: not a repository, and no git process is started to learn it.
  if (findGitRoot(projectRoot) === undefined) return notes
  let budget = MAX_PATHS
  for (const m of memories) {
    if (budget <= 0) break
    const paths = findCodeMentions(bodyOf(m.text))
      .paths.map((p) => (isAbsolute(p) ? relative(projectRoot, p) : p))
      .filter((p) => p && !p.startsWith('..'))
      .slice(0, budget)
    if (!paths.length) continue
    budget -= paths.length
    const parts: string[] = []
    for (const p of paths) {
      const since = `--since=@${Math.floor(m.mtimeMs / 1000)}`
      const tracked = await ask(projectRoot, ['ls-files', '--', p])
      if (tracked === undefined) return notes // not a git repository
      if (tracked.trim()) {
        const n = Number(
          (await ask(projectRoot, ['rev-list', '--count', since, 'HEAD', '--', p]))?.trim() ?? 0,
        )
        if (n > 0)
          parts.push(`mentions ${p}, changed in ${n} commit${n === 1 ? '' : 's'} since this memory was saved`)
      } else if ((await ask(projectRoot, ['log', '-1', '--format=%h', since, '--', p]))?.trim())
        parts.push(`mentions ${p}, which no longer exists`)
    }
    if (parts.length)
      notes.set(m.path, `Note: this memory ${parts.join('; ')}. Check the code before relying on it.`)
  }
  return notes
}
