import type { ExecFileOptions } from 'node:child_process'
import { promisify } from 'node:util'

type Run = (
  file: string,
  args: string[],
  opts: ExecFileOptions & { encoding: 'utf8' },
) => Promise<{ stdout: string }>
let execFileAsync: Run | undefined
// child_process loads on the first git call: recall links this module, and `memdir hook prompt`
// outside a repository (or with no paths to check) never starts git.
const run: Run = async (file, args, opts) => {
  execFileAsync ??= promisify((await import('node:child_process')).execFile) as Run
  return execFileAsync(file, args, opts)
}

export interface Commit {
  hash: string
  /** Commit time, ms. */
  time: number
  subject: string
}

/** `git -C root …` with paths printed as they are (no octal quoting); resolves with stdout. */
export const git = async (root: string, args: string[], timeoutMs = 0): Promise<string> =>
  (
    await run('git', ['-C', root, '-c', 'core.quotePath=false', ...args], {
      maxBuffer: 512 * 1024 * 1024,
      encoding: 'utf8',
      timeout: timeoutMs,
    })
  ).stdout

const RS = '\x1e'
const US = '\x1f'

/**
 * What a project's git history says about its paths: which exist at HEAD, which commits touched
 * each, and where renamed or deleted ones went (git's rename detection over the whole log). Built
 * from one `git log --name-status -M`; after new commits only `old..new` is read.
 */
export class GitHistory {
  head?: string
  private commits: Commit[] = []
  /** Indices into `commits` (oldest first) of the commits that touched each path. */
  private touches = new Map<string, number[]>()
  private sortedTouched: string[] = []
  private renamedTo = new Map<string, { to: string; commit: number }>()
  private deletedIn = new Map<string, number>()
  private files = new Set<string>()
  private sortedFiles: string[] = []

  constructor(
    readonly root: string,
    private readonly maxCommits = 50_000,
    /** Only commits after this time (ms): enough to judge memories saved after it. */
    private readonly sinceMs?: number,
    /** Each git call's limit (0: none); a call over it fails the refresh. */
    private readonly timeoutMs = 0,
  ) {}

  /** Whether the project is a git repository with at least one commit. */
  get available(): boolean {
    return this.head !== undefined
  }

  /** Reads new commits since the last refresh; returns how many were read. */
  async refresh(): Promise<number> {
    const head = (
      await git(this.root, ['rev-parse', '--verify', '-q', 'HEAD'], this.timeoutMs).catch(() => '')
    ).trim()
    if (!head) {
      this.head = undefined
      return 0
    }
    if (head === this.head) return 0
    let range = head
    if (this.head) {
      const ancestor = await git(this.root, ['merge-base', '--is-ancestor', this.head, head]).then(
        () => true,
        () => false,
      )
      if (ancestor) range = `${this.head}..${head}`
      else this.reset()
    }
    const [log, files] = await Promise.all([
      git(
        this.root,
        [
          'log',
          '--name-status',
          '-M',
          '--no-color',
          '--no-merges',
          `-n${this.maxCommits}`,
          ...(this.sinceMs !== undefined ? [`--since=@${Math.floor(this.sinceMs / 1000)}`] : []),
          `--format=${RS}%H${US}%ct${US}%s`,
          range,
        ],
        this.timeoutMs,
      ),
      git(this.root, ['ls-files', '-z'], this.timeoutMs),
    ])
    const added = this.addLog(log)
    this.files = new Set(files.split('\0').filter(Boolean))
    this.sortedFiles = [...this.files].sort()
    this.head = head
    return added
  }

  private reset() {
    this.commits = []
    this.touches.clear()
    this.renamedTo.clear()
    this.deletedIn.clear()
  }

  /** `git log` prints newest first; commits are kept oldest first so new ones append. */
  private addLog(log: string): number {
    const blocks = log.split(RS).filter((b) => b.trim())
    const base = this.commits.length
    const n = blocks.length
    blocks.forEach((block, k) => {
      const idx = base + (n - 1 - k)
      const nl = block.indexOf('\n')
      const [hash, ct, subject] = (nl < 0 ? block : block.slice(0, nl)).split(US)
      this.commits[idx] = { hash: hash!, time: Number(ct) * 1000, subject: subject ?? '' }
      if (nl < 0) return
      for (const line of block.slice(nl + 1).split('\n')) {
        if (!line) continue
        const parts = line.split('\t')
        const status = parts[0]!
        if (status.startsWith('R') && parts.length >= 3) {
          this.touch(parts[1]!, idx)
          this.touch(parts[2]!, idx)
          this.setLatest(this.renamedTo, parts[1]!, { to: parts[2]!, commit: idx })
        } else if (parts[1]) {
          this.touch(parts[1], idx)
          if (status === 'D') this.setLatestIdx(this.deletedIn, parts[1], idx)
        }
      }
    })
    for (const list of this.touches.values()) list.sort((a, b) => a - b)
    this.sortedTouched = [...this.touches.keys()].sort()
    return n
  }

  private touch(path: string, idx: number) {
    const list = this.touches.get(path)
    if (list) list.push(idx)
    else this.touches.set(path, [idx])
  }

  private setLatest(
    map: Map<string, { to: string; commit: number }>,
    key: string,
    v: { to: string; commit: number },
  ) {
    const cur = map.get(key)
    if (!cur || cur.commit < v.commit) map.set(key, v)
  }

  private setLatestIdx(map: Map<string, number>, key: string, idx: number) {
    if ((map.get(key) ?? -1) < idx) map.set(key, idx)
  }

  get commitCount(): number {
    return this.commits.length
  }

  /** A file at HEAD, or (ending in `/`) a dir with files at HEAD. */
  exists(path: string): boolean {
    return path.endsWith('/') ? prefixRange(this.sortedFiles, path).length > 0 : this.files.has(path)
  }

  /** Whether git ever knew the path: only then is it a repository path. */
  known(path: string): boolean {
    return (
      this.exists(path) ||
      (path.endsWith('/') ? prefixRange(this.sortedTouched, path).length > 0 : this.touches.has(path))
    )
  }

  /** Commits that touched the path (or anything under the dir) after `sinceMs`, newest first. */
  changesSince(path: string, sinceMs: number): Commit[] {
    const keys = path.endsWith('/') ? prefixRange(this.sortedTouched, path) : [path]
    const idx = new Set<number>()
    for (const k of keys)
      for (const i of this.touches.get(k) ?? []) if (this.commits[i]!.time > sinceMs) idx.add(i)
    return [...idx].sort((a, b) => b - a).map((i) => this.commits[i]!)
  }

  /**
   * Where a path that is gone went: the end of its rename chain when that exists at HEAD, else the
   * commit that deleted it (or the last rename, when the new name is gone too).
   */
  whereIs(path: string): { movedTo?: string; commit?: Commit } {
    if (path.endsWith('/')) return this.whereIsDir(path)
    let p = path
    let last: { to: string; commit: number } | undefined
    for (let hops = 0; hops < 20; hops++) {
      const r = this.renamedTo.get(p)
      if (!r || (last && r.commit < last.commit)) break
      last = r
      p = r.to
      if (this.files.has(p)) return { movedTo: p, commit: this.commits[r.commit] }
    }
    const del = this.deletedIn.get(p) ?? this.deletedIn.get(path)
    return { commit: del !== undefined ? this.commits[del] : last ? this.commits[last.commit] : undefined }
  }

  /** A dir is "moved" when most of its old files were renamed under one new dir. */
  private whereIsDir(dir: string): { movedTo?: string; commit?: Commit } {
    const votes = new Map<string, { n: number; commit: number }>()
    for (const old of prefixRange(this.sortedTouched, dir)) {
      const w = this.whereIs(old)
      if (!w.movedTo) continue
      const rest = old.slice(dir.length)
      if (!w.movedTo.endsWith(rest)) continue
      const to = w.movedTo.slice(0, w.movedTo.length - rest.length)
      const v = votes.get(to) ?? { n: 0, commit: 0 }
      votes.set(to, { n: v.n + 1, commit: Math.max(v.commit, this.commits.indexOf(w.commit!)) })
    }
    const best = [...votes.entries()].sort((a, b) => b[1].n - a[1].n)[0]
    return best ? { movedTo: best[0], commit: this.commits[best[1].commit] } : {}
  }
}

/** The entries of a sorted array that start with `prefix`. */
function prefixRange(sorted: readonly string[], prefix: string): string[] {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid]! < prefix) lo = mid + 1
    else hi = mid
  }
  const out: string[] = []
  for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!)
  return out
}

/** Which of these identifiers occur as whole words in the project's tracked files. */
export async function symbolsInCode(root: string, symbols: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>()
  for (let i = 0; i < symbols.length; i += 200) {
    const batch = symbols.slice(i, i + 200)
    const out = await git(root, [
      'grep',
      '-I',
      '-h',
      '-o',
      '-w',
      '-F',
      ...batch.flatMap((s) => ['-e', s]),
    ]).catch((e: { code?: number; stdout?: string }) => (e.code === 1 ? '' : (e.stdout ?? '')))
    for (const line of out.split('\n')) if (line) found.add(line.trim())
  }
  return found
}

export function shortCommit(c: Commit): string {
  return `${c.hash.slice(0, 8)} ${new Date(c.time).toISOString().slice(0, 10)} ${c.subject}`
}
