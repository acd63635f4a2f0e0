import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { isAbsolute, relative } from 'node:path'
import { promisify } from 'node:util'
import { bodyOf } from '../store/frontmatter.js'
import { findCodeMentions } from './code-mentions.js'

const run = promisify(execFile)
const MAX_PATHS = 8

const git = (root: string, args: string[]) =>
  run('git', ['-C', root, '-c', 'core.quotePath=false', ...args], { encoding: 'utf8', timeout: 5_000 }).then(
    (r) => r.stdout,
    () => undefined,
  )

/**
 * The staleness line recall adds to a memory that names repository paths: "mentions src/app.ts,
 * changed in 14 commits since this memory was saved" (or "which no longer exists"). A few git
 * calls per recalled memory, only for memories that name paths; nothing when the project is not a
 * git repository.
 */
export async function codeStalenessNotes(
  projectRoot: string,
  memories: readonly { path: string; mtimeMs: number }[],
): Promise<Map<string, string>> {
  const notes = new Map<string, string>()
  let budget = MAX_PATHS
  for (const m of memories) {
    if (budget <= 0) break
    const text = await readFile(m.path, 'utf8').catch(() => '')
    const paths = findCodeMentions(bodyOf(text))
      .paths.map((p) => (isAbsolute(p) ? relative(projectRoot, p) : p))
      .filter((p) => p && !p.startsWith('..'))
      .slice(0, budget)
    if (!paths.length) continue
    budget -= paths.length
    const parts: string[] = []
    for (const p of paths) {
      const since = `--since=@${Math.floor(m.mtimeMs / 1000)}`
      const tracked = await git(projectRoot, ['ls-files', '--', p])
      if (tracked === undefined) return notes // not a git repository
      if (tracked.trim()) {
        const n = Number(
          (await git(projectRoot, ['rev-list', '--count', since, 'HEAD', '--', p]))?.trim() ?? 0,
        )
        if (n > 0)
          parts.push(`mentions ${p}, changed in ${n} commit${n === 1 ? '' : 's'} since this memory was saved`)
      } else if ((await git(projectRoot, ['log', '-1', '--format=%h', since, '--', p]))?.trim())
        parts.push(`mentions ${p}, which no longer exists`)
    }
    if (parts.length)
      notes.set(m.path, `Note: this memory ${parts.join('; ')}. Check the code before relying on it.`)
  }
  return notes
}
