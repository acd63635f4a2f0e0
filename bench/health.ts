import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { HealthChecker } from '../src-main/core/health/health-checker.js'
import { listMemoryFiles } from '../src-main/core/store/scan.js'
import { benchDir, ratio, table } from './lib.js'

const COMMITS = 5000
const FILES = 800
const MEMORIES = 2000
const T0 = Date.UTC(2025, 0, 1) / 1000

/**
 * A repository with 5,000 commits, built with `git fast-import` (seconds, not minutes): each commit
 * changes two of 800 files; every 50th renames one and every 97th deletes one.
 */
function buildRepo(root: string): string[] {
  execFileSync('git', ['init', '-q', '-b', 'main', root])
  const files = Array.from({ length: FILES }, (_, i) => `src/mod${i % 40}/file${i}.ts`)
  const live = new Set(files)
  let stream = ''
  let mark = 0
  for (let c = 0; c < COMMITS; c++) {
    const when = T0 + c * 600
    let ops = ''
    if (c === 0) for (const f of files) ops += `M 100644 inline ${f}\ndata 12\nexport {} //\n`
    else {
      const list = [...live]
      for (let k = 0; k < 2; k++) {
        const f = list[(c * 7 + k * 13) % list.length]!
        const body = `export const v = ${c}\n`
        ops += `M 100644 inline ${f}\ndata ${Buffer.byteLength(body)}\n${body}`
      }
      if (c % 50 === 0) {
        const from = list[(c * 3) % list.length]!
        const to = from.replace('.ts', `-r${c}.ts`)
        ops += `R ${from} ${to}\n`
        live.delete(from)
        live.add(to)
      } else if (c % 97 === 0 && live.size > 100) {
        const gone = list[(c * 5) % list.length]!
        ops += `D ${gone}\n`
        live.delete(gone)
      }
    }
    const msg = `commit ${c}`
    stream += `commit refs/heads/main\nmark :${++mark}\ncommitter b <b@example.com> ${when} +0000\ndata ${msg.length}\n${msg}\n${c > 0 ? `from :${mark - 1}\n` : ''}${ops}\n`
  }
  execFileSync('git', ['-C', root, 'fast-import', '--quiet'], { input: stream, maxBuffer: 1 << 30 })
  execFileSync('git', ['-C', root, 'checkout', '-q', '-f', 'main'])
  return files
}

function writeMemories(memoryDir: string, files: string[]) {
  mkdirSync(memoryDir, { recursive: true })
  const index: string[] = []
  for (let i = 0; i < MEMORIES; i++) {
    const rel = `memory_${String(i).padStart(4, '0')}.md`
    const a = files[(i * 11) % files.length]!
    const b = files[(i * 17 + 5) % files.length]!
    writeFileSync(
      join(memoryDir, rel),
      `---\nname: Memory ${i}\ndescription: how subsystem ${i % 40} handles case ${i}\ntype: project\n---\n\n` +
        `Case ${i} is handled in \`${a}\`; the fallback for ${i} is in ${b}. Run \`npm run build\` after changing it.\n` +
        `Background for case ${i}: ${'detail '.repeat(i % 30)}\n`,
    )
    const at = T0 + (i % COMMITS) * 600
    utimesSync(join(memoryDir, rel), at, at)
    if (i < 180) index.push(`- [Memory ${i}](${rel}) — case ${i}`)
  }
  writeFileSync(join(memoryDir, 'MEMORY.md'), index.join('\n') + '\n')
}

const ms = (t: number) => performance.now() - t

export async function benchHealth(): Promise<void> {
  console.log(`\n## bench/health — ${MEMORIES} memories against a repo with ${COMMITS} commits`)
  const { dir, cleanup } = benchDir('health')
  try {
    const repo = join(dir, 'repo')
    const files = buildRepo(repo)
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { build: 'tsc' } }))
    const memoryDir = join(dir, 'memory')
    writeMemories(memoryDir, files)

    // Baseline: git alone reading the same history the check reads.
    let t = performance.now()
    const log = spawnSync(
      'git',
      ['-C', repo, 'log', '--name-status', '-M', '--no-merges', '--format=%H %ct %s'],
      {
        maxBuffer: 1 << 30,
      },
    )
    const gitLog = ms(t)
    if (log.status !== 0) throw new Error(String(log.stderr))

    // The app's scan worker threads are warm long before a health check runs.
    for (let i = 0; i < 4; i++) await listMemoryFiles(memoryDir)
    const checker = new HealthChecker({ memoryDir, projectRoot: repo })
    t = performance.now()
    const full = await checker.check()
    const fullMs = ms(t)

    writeFileSync(
      join(memoryDir, 'memory_0007.md'),
      '---\nname: Memory 7\ndescription: changed\ntype: project\n---\n\nNow in `src/mod1/file1.ts`.\n',
    )
    checker.invalidate(['memory_0007.md'])
    t = performance.now()
    const oneMemory = await checker.check()
    const oneMemoryMs = ms(t)

    writeFileSync(join(repo, 'src/mod1/file1.ts'), 'export const v = -1\n')
    execFileSync('git', ['-C', repo, 'add', '-A'])
    execFileSync('git', ['-C', repo, 'commit', '-qm', 'one more'], {
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@e',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@e',
      },
    })
    t = performance.now()
    const oneCommit = await checker.check()
    const oneCommitMs = ms(t)

    table([
      { check: 'git log --name-status -M (baseline)', ms: gitLog.toFixed(0), 'vs git log': '1.00×' },
      {
        check: `full (${full.findings.length} findings, ${full.rechecked.memories} memories, ${full.rechecked.commits} commits read)`,
        ms: fullMs.toFixed(0),
        'vs git log': ratio(fullMs, gitLog),
      },
      {
        check: `after one changed memory (${oneMemory.rechecked.memories} re-read)`,
        ms: oneMemoryMs.toFixed(0),
        'vs git log': ratio(oneMemoryMs, gitLog),
      },
      {
        check: `after one new commit (${oneCommit.rechecked.commits} commit read)`,
        ms: oneCommitMs.toFixed(0),
        'vs git log': ratio(oneCommitMs, gitLog),
      },
    ])
  } finally {
    if (!process.env.MEMDIR_BENCH_KEEP) cleanup()
    else console.log('kept', dir)
  }
}
