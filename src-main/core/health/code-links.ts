import { readTextFile } from '../store/regular-file.js'
import { orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { finding, type Finding } from './findings.js'
import { shortCommit, type GitHistory } from '../staleness/git-history.js'
import { describePathStaleness, pathStaleness } from '../staleness/path-staleness.js'
import type { MemoryFacts } from './memory-facts.js'

export interface CodeLinkOptions {
  /** A mentioned path changed in this many commits since the memory was written: stale. */
  staleAfterCommits: number
}

/**
 * Paths a memory names, checked against git: gone (and where it went), or changed in N commits
 * since the memory was written or last marked as still true (`since`). The facts and their words
 * are recall's too (staleness/path-staleness.ts).
 */
export function checkPaths(
  m: MemoryFacts,
  git: GitHistory,
  projectRoot: string,
  since: number,
  opts: CodeLinkOptions,
): Finding[] {
  return pathStaleness(git, projectRoot, m.mentions.paths, since, opts.staleAfterCommits).map((s) =>
    finding(
      s.state === 'changed' ? 'path-changed' : 'path-gone',
      m.relPath,
      `Mentions ${describePathStaleness(s)}`,
      s.state === 'changed'
        ? s.commits.slice(0, 5).map(shortCommit)
        : s.commit
          ? [shortCommit(s.commit)]
          : [],
      s.state === 'changed'
        ? ['verify', 'open']
        : s.movedTo
          ? ['update-path', 'verify', 'open']
          : ['verify', 'open'],
      { subject: s.path, ...(s.state === 'gone' && s.movedTo ? { movedTo: s.movedTo } : {}) },
    ),
  )
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
    const names = new Set(parse(await orIfMissing(readTextFile(path), '')))
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
