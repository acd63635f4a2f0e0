import { orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { readFile, stat } from 'node:fs/promises'
import { isAbsolute, join, relative } from 'node:path'
import { finding, type Finding } from './findings.js'
import { shortCommit, type GitHistory } from '../staleness/git-history.js'
import type { MemoryFacts } from './memory-facts.js'

export interface CodeLinkOptions {
  /** A mentioned path changed in this many commits since the memory was written: stale. */
  staleAfterCommits: number
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`

/** A mention as a repository-relative path, or undefined when it points outside the repo. */
function repoPath(root: string, p: string): string | undefined {
  if (!isAbsolute(p)) return p
  const rel = relative(root, p)
  return rel && !rel.startsWith('..') ? rel + (p.endsWith('/') ? '/' : '') : undefined
}

/**
 * Paths a memory names, checked against git: gone (and where it went), or changed in N commits
 * since the memory was written or last marked as still true (`since`).
 */
export function checkPaths(m: MemoryFacts, git: GitHistory, since: number, opts: CodeLinkOptions): Finding[] {
  const out: Finding[] = []
  for (const raw of m.mentions.paths) {
    const p = repoPath(git.root, raw)
    if (!p || !git.known(p)) continue
    if (git.exists(p)) {
      const changes = git.changesSince(p, since)
      if (changes.length >= opts.staleAfterCommits)
        out.push(
          finding(
            'path-changed',
            m.relPath,
            `Mentions ${p}, changed in ${plural(changes.length, 'commit')} since this memory was saved`,
            changes.slice(0, 5).map(shortCommit),
            ['verify', 'open'],
            { subject: p },
          ),
        )
      continue
    }
    const where = git.whereIs(p)
    if (where.commit && where.commit.time <= since) continue // gone before the memory was written or verified
    out.push(
      finding(
        'path-gone',
        m.relPath,
        where.movedTo
          ? `Mentions ${p}, which moved to ${where.movedTo}`
          : `Mentions ${p}, which no longer exists`,
        where.commit ? [shortCommit(where.commit)] : [],
        where.movedTo ? ['update-path', 'verify', 'open'] : ['verify', 'open'],
        { subject: p, ...(where.movedTo ? { movedTo: where.movedTo } : {}) },
      ),
    )
  }
  return out
}

/** The project's package scripts and make targets, read when their files change. */
export class ProjectCommands {
  private cache = new Map<string, { mtimeMs: number; names: Set<string> }>()

  constructor(readonly root: string) {}

  private async names(file: string, parse: (text: string) => string[]): Promise<Set<string> | undefined> {
    const path = join(this.root, file)
    const st = await orIfMissing(stat(path), undefined)
    if (!st) return undefined
    const hit = this.cache.get(file)
    if (hit && hit.mtimeMs === st.mtimeMs) return hit.names
    const names = new Set(parse(await orIfMissing(readFile(path, 'utf8'), '')))
    this.cache.set(file, { mtimeMs: st.mtimeMs, names })
    return names
  }

  scripts(): Promise<Set<string> | undefined> {
    return this.names('package.json', (t) => {
      try {
        return Object.keys((JSON.parse(t) as { scripts?: Record<string, string> }).scripts ?? {})
      } catch (e) {
        rethrowUnless(e instanceof SyntaxError, e)
        return []
      }
    })
  }

  targets(): Promise<Set<string> | undefined> {
    return this.names('Makefile', (t) => [...t.matchAll(/^([\w.-]+)\s*:(?!=)/gm)].map((m) => m[1]!))
  }
}

/** The project's commands as they stand at this check: read once per check, not per memory. */
export interface KnownCommands {
  scripts?: Set<string>
  targets?: Set<string>
}

export function checkCommands(m: MemoryFacts, known: KnownCommands): Finding[] {
  const out: Finding[] = []
  for (const c of m.mentions.commands) {
    const names = c.tool === 'npm' ? known.scripts : known.targets
    if (!names || names.has(c.name)) continue
    const where = c.tool === 'npm' ? 'package.json scripts' : 'the Makefile'
    out.push(
      finding(
        'command-gone',
        m.relPath,
        `Mentions \`${c.text}\`, but ${where} has no "${c.name}"`,
        [],
        ['verify', 'open'],
        {
          subject: c.text,
        },
      ),
    )
  }
  return out
}

export function checkSymbols(m: MemoryFacts, inCode: ReadonlySet<string>): Finding[] {
  return m.mentions.symbols
    .filter((s) => !inCode.has(s))
    .map((s) =>
      finding(
        'symbol-gone',
        m.relPath,
        `Mentions \`${s}\`, which no tracked file contains`,
        [],
        ['verify', 'open'],
        {
          subject: s,
        },
      ),
    )
}
