import { messageOf, orIfMissing } from '../../../src-shared/errors.js'
import { findGitRoot } from '../paths/git-root.js'
import { STALE_AFTER_COMMITS, stalenessSince } from '../staleness/path-staleness.js'
import { stat } from 'node:fs/promises'
import { readRegularHead, readTextFile } from '../store/regular-file.js'
import type { HealthView } from '../../../src-shared/types.js'
import { join } from 'node:path'
import { ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import { TEAM_DIRNAME } from '../paths/team-agent-paths.js'
import { listMemoryFiles, type Scanner } from '../store/scan.js'
import { checkCommands, checkPaths, checkSymbols, ProjectCommands } from './code-links.js'
import { finding, type Finding, type FindingKind } from './findings.js'
import { GitHistory, symbolsInCode } from '../staleness/git-history.js'
import { checkIndex, indexNotAFileFinding } from './index-checks.js'
import { indexNotAFile } from '../store/index-file.js'
import { memoryFacts, type MemoryFacts } from './memory-facts.js'
import { NearDuplicateIndex } from './near-duplicates.js'
import { ContradictionCheck, sameTopicPairs } from './contradictions.js'
import type { ModelClient } from '../model/client.js'

export interface HealthOptions {
  /** A mentioned path changed in this many commits since the memory was written: stale (default 3). */
  staleAfterCommits?: number
  /** Jaccard similarity of word 3-shingles from which two memories are near-duplicates (default 0.5). */
  duplicateThreshold?: number
}

/** The shared HealthView, with core's own finding types. */
export interface HealthReport extends Omit<HealthView, 'findings' | 'counts'> {
  findings: Finding[]
  counts: Partial<Record<FindingKind, number>>
}

export interface HealthDeps {
  memoryDir: string
  /** The project's folder (its git history is checked); none for a memory dir without one. */
  projectRoot?: string
  /** When the user last marked a memory as still true (history `verify`), if ever. */
  verifiedAt?: (relPath: string) => number | undefined
  options?: HealthOptions
  /** A model to ask whether same-topic memories contradict each other (none: that check is off). */
  model?: { client: ModelClient; model: string }
  /** Where memory files are read (the entry point's choice). */
  scanner?: Scanner
}

const MAX_BYTES = 512 * 1024
const DEFAULTS = { staleAfterCommits: STALE_AFTER_COMMITS, duplicateThreshold: 0.5 }

/**
 * Health of one workspace, incrementally: each memory file is analysed once per version (kept
 * until the watcher says it changed, or its size/mtime differ), git history is read once and then
 * only for new commits; the cross-file checks (index, duplicates, code links) rerun over the
 * cached facts.
 */
export class HealthChecker {
  private facts = new Map<string, MemoryFacts>()
  private dirty = new Set<string>()
  private git?: GitHistory
  private commands?: ProjectCommands
  private symbolCache = { head: '', found: new Set<string>(), asked: new Set<string>() }
  private readonly similar: NearDuplicateIndex
  private readonly contradictions?: ContradictionCheck

  constructor(private readonly deps: HealthDeps) {
    this.similar = new NearDuplicateIndex(deps.options?.duplicateThreshold ?? DEFAULTS.duplicateThreshold)
    if (deps.model) this.contradictions = new ContradictionCheck(deps.model.client, deps.model.model)
    if (deps.projectRoot) {
      // The repository's own root: git names paths from there, whatever folder the project is.
      this.git = new GitHistory(findGitRoot(deps.projectRoot) ?? deps.projectRoot)
      this.commands = new ProjectCommands(deps.projectRoot)
    }
  }

  /** Memories the watcher saw change: re-read on the next check. */
  invalidate(relPaths: Iterable<string>): void {
    for (const p of relPaths) this.dirty.add(p)
  }

  private async refreshFacts(): Promise<{ files: string[]; reread: number }> {
    const files = (await listMemoryFiles(this.deps.memoryDir, this.deps.scanner)).sort()
    const present = new Set(files)
    for (const k of this.facts.keys())
      if (!present.has(k)) {
        this.facts.delete(k)
        this.similar.remove(k)
      }
    let reread = 0
    await Promise.all(
      files.map(async (rel) => {
        const abs = join(this.deps.memoryDir, rel)
        const cached = this.facts.get(rel)
        if (cached && !this.dirty.has(rel)) return
        const st = await orIfMissing(stat(abs), undefined)
        if (!st) return
        if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return
        if (!st.isFile()) return
        // Only the start of a huge file: its facts come from there, its size from the stat.
        const text = await readRegularHead(abs, MAX_BYTES)
        const facts = await memoryFacts(rel, text, st.mtimeMs, st.size)
        this.facts.set(rel, facts)
        this.similar.set(rel, facts.shingled)
        reread++
      }),
    )
    this.dirty.clear()
    return { files, reread }
  }

  private async readIndex(rel: string): Promise<string | null> {
    return readTextFile(join(this.deps.memoryDir, rel)).catch(() => null)
  }

  /** Which symbols the code has, asking git only about symbols not asked about at this HEAD. */
  private async symbolsFound(symbols: string[]): Promise<Set<string>> {
    const git = this.git!
    if (this.symbolCache.head !== git.head)
      this.symbolCache = { head: git.head!, found: new Set(), asked: new Set() }
    const cache = this.symbolCache
    const todo = symbols.filter((s) => !cache.asked.has(s))
    if (todo.length) {
      for (const s of await symbolsInCode(git.root, todo)) cache.found.add(s)
      for (const s of todo) cache.asked.add(s)
    }
    return cache.found
  }

  /** The report; the model is asked about same-topic pairs only with `askModel`. */
  async check(run: { askModel?: boolean } = {}): Promise<HealthReport> {
    const opts = { ...DEFAULTS, ...this.deps.options }
    const [{ files, reread }, newCommits] = await Promise.all([
      this.refreshFacts(),
      this.git ? this.git.refresh().catch(() => 0) : Promise.resolve(0),
    ])
    const findings: Finding[] = []
    const all = files.map((f) => this.facts.get(f)).filter((f): f is MemoryFacts => !!f)
    for (const m of all) findings.push(...m.own)

    const names = new Map(all.flatMap((m) => (m.name ? [[m.relPath, m.name] as const] : [])))
    for (const indexRel of [ENTRYPOINT_NAME, `${TEAM_DIRNAME}/${ENTRYPOINT_NAME}`]) {
      const notAFile = await indexNotAFile(join(this.deps.memoryDir, indexRel))
      if (notAFile) {
        findings.push(indexNotAFileFinding(indexRel, notAFile))
        continue
      }
      const content = await this.readIndex(indexRel)
      const hasTeamFiles = files.some((f) => f.startsWith(`${TEAM_DIRNAME}/`))
      if (indexRel !== ENTRYPOINT_NAME && content === null && !hasTeamFiles) continue
      findings.push(...checkIndex(indexRel, content, files, names))
    }

    const dupes = duplicates(all, this.similar)
    findings.push(...dupes)
    let contradictions: HealthReport['contradictions'] = 'off'
    if (this.contradictions) {
      const skip = new Set(dupes.map((f) => `${f.path}\0${f.other}`))
      const pairs = sameTopicPairs(all, skip)
      // A failed model call costs the contradiction check only, never the rest of the report.
      let failed: string | undefined
      if (run.askModel)
        await this.contradictions.ask(pairs).catch((e: unknown) => {
          failed = messageOf(e)
        })
      findings.push(...this.contradictions.found(pairs))
      contradictions = { ...this.contradictions.status(pairs), ...(failed ? { failed } : {}) }
    }

    const git = this.git
    if (git?.available) {
      const symbols = [...new Set(all.flatMap((m) => m.mentions.symbols))]
      const found = symbols.length ? await this.symbolsFound(symbols) : new Set<string>()
      const known = { scripts: await this.commands!.scripts(), targets: await this.commands!.targets() }
      for (const m of all) {
        const verified = this.deps.verifiedAt?.(m.relPath)
        findings.push(
          ...checkPaths(m, git, this.deps.projectRoot!, stalenessSince(m.mtimeMs, verified), opts),
        )
        if (verified && verified >= m.mtimeMs) continue // the user said it is still true
        findings.push(...checkCommands(m, known), ...checkSymbols(m, found))
      }
    }

    const counts: HealthReport['counts'] = {}
    for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1
    const rank = { error: 0, warning: 1, info: 2 }
    findings.sort(
      (a, b) =>
        rank[a.severity] - rank[b.severity] || a.kind.localeCompare(b.kind) || a.path.localeCompare(b.path),
    )
    return {
      findings,
      counts,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      memories: all.length,
      git: {
        available: !!git?.available,
        commits: git?.commitCount ?? 0,
        ...(git?.head ? { head: git.head } : {}),
      },
      rechecked: { memories: reread, commits: newCommits },
      checkedAt: Date.now(),
      contradictions,
    }
  }
}

const normName = (n: string | undefined) => n?.toLowerCase().replace(/\s+/g, ' ').trim()

function duplicates(all: readonly MemoryFacts[], similar: NearDuplicateIndex): Finding[] {
  const out: Finding[] = []
  const byName = new Map<string, MemoryFacts[]>()
  for (const m of all) {
    const n = normName(m.name)
    if (!n) continue
    byName.set(n, [...(byName.get(n) ?? []), m])
  }
  const named = new Set<string>()
  for (const group of byName.values())
    for (let i = 1; i < group.length; i++) {
      const [a, b] = [group[0]!, group[i]!]
      named.add(`${a.relPath}\0${b.relPath}`)
      out.push(
        finding(
          'duplicate-name',
          a.relPath,
          `Same name as ${b.relPath}: "${a.name}"`,
          [a.relPath, b.relPath],
          ['merge', 'open'],
          {
            other: b.relPath,
          },
        ),
      )
    }
  for (const p of similar.list()) {
    if (named.has(`${p.a}\0${p.b}`) || named.has(`${p.b}\0${p.a}`)) continue
    out.push(
      finding(
        'near-duplicate',
        p.a,
        `Says nearly the same as ${p.b} (${Math.round(p.similarity * 100)}% of their wording is shared)`,
        [p.a, p.b],
        ['merge', 'open'],
        { other: p.b },
      ),
    )
  }
  return out
}
