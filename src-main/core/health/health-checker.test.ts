import { rmSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gitRepo } from '../../../test/helpers/git-repo.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { HealthChecker } from './health-checker.js'

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)

const repo = () => gitRepo()

const mem = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`

function memoryAt(dir: string, rel: string, text: string, at: number) {
  const p = writeFile(join(dir, rel), text)
  utimesSync(p, at / 1000, at / 1000)
}

const kinds = (r: { findings: { kind: string; path: string }[] }) =>
  r.findings.map((f) => `${f.kind} ${f.path}`).sort()
/** The code-link findings only (these memory dirs have no MEMORY.md). */
const codeKinds = (r: { findings: { kind: string; path: string }[] }) =>
  kinds({ findings: r.findings.filter((f) => f.kind !== 'unindexed') })

describe('code-linked staleness on a real git repo', () => {
  it('finds a renamed file (and where it went), a deleted file, and a file changed in k commits', async () => {
    const r = repo()
    r.put('src/app.ts', 'export const app = 1\n')
    r.put('src/old-name.ts', 'export const x = 1\n')
    r.put('src/gone.ts', 'export const y = 1\n')
    r.put('README.md', '# r\n')
    r.commit('initial', T0)
    const dir = tempDir()
    memoryAt(
      dir,
      'app.md',
      mem('App entry', 'where the app starts', 'The app starts in `src/app.ts`.'),
      T0 + DAY,
    )
    memoryAt(dir, 'moved.md', mem('Helper', 'the x helper', 'x lives in src/old-name.ts'), T0 + DAY)
    memoryAt(dir, 'gone.md', mem('Y', 'the y helper', 'See src/gone.ts for y.'), T0 + DAY)
    writeFile(join(dir, 'MEMORY.md'), '- [App](app.md) — a\n- [Helper](moved.md) — h\n- [Y](gone.md) — y\n')
    for (let k = 1; k <= 4; k++) {
      r.put('src/app.ts', `export const app = ${k + 1}\n`)
      r.commit(`app change ${k}`, T0 + (1 + k) * DAY)
    }
    r.git(['mv', 'src/old-name.ts', 'src/new-name.ts'])
    r.commit('rename helper', T0 + 6 * DAY)
    rmSync(join(r.root, 'src/gone.ts'))
    r.commit('drop y', T0 + 7 * DAY)

    const report = await new HealthChecker({ memoryDir: dir, projectRoot: r.root }).check()
    const byPath = new Map(report.findings.map((f) => [f.path + ' ' + f.kind, f]))
    const changed = byPath.get('app.md path-changed')!
    expect(changed.message).toBe('Mentions src/app.ts, changed in 4 commits since this memory was saved')
    expect(changed.evidence).toHaveLength(4)
    expect(changed.evidence[0]).toMatch(/^[0-9a-f]{8} 2026-01-06 app change 4$/)
    const moved = byPath.get('moved.md path-gone')!
    expect(moved).toMatchObject({ movedTo: 'src/new-name.ts', fixes: ['update-path', 'verify', 'open'] })
    expect(moved.evidence[0]).toContain('rename helper')
    const gone = byPath.get('gone.md path-gone')!
    expect(gone.message).toBe('Mentions src/gone.ts, which no longer exists')
    expect(gone.evidence[0]).toContain('drop y')
    expect(report.git).toMatchObject({ available: true, commits: 7 })
  })

  it('a memory verified after the change is not stale; changes below the threshold are not reported', async () => {
    const r = repo()
    r.put('src/app.ts', '1\n')
    r.put('src/lib/a.ts', '1\n')
    r.commit('initial', T0)
    const dir = tempDir()
    memoryAt(dir, 'app.md', mem('App', 'entry', 'Starts in src/app.ts; helpers under `src/lib/`.'), T0 + DAY)
    for (let k = 1; k <= 3; k++) {
      r.put('src/app.ts', `${k + 1}\n`)
      r.put('src/lib/a.ts', `${k + 1}\n`)
      r.commit(`change ${k}`, T0 + (1 + k) * DAY)
    }
    const verified = new Map<string, number>()
    const checker = new HealthChecker({
      memoryDir: dir,
      projectRoot: r.root,
      verifiedAt: (rel) => verified.get(rel),
    })
    expect(codeKinds(await checker.check())).toEqual(['path-changed app.md', 'path-changed app.md'])
    verified.set('app.md', T0 + 10 * DAY)
    expect(codeKinds(await checker.check())).toEqual([])
    // Two more commits after the verification: below the threshold of 3.
    r.put('src/app.ts', 'x\n')
    r.commit('after 1', T0 + 11 * DAY)
    r.put('src/app.ts', 'y\n')
    r.commit('after 2', T0 + 12 * DAY)
    const again = await checker.check()
    expect(again.rechecked).toEqual({ memories: 0, commits: 2 })
    expect(codeKinds(again)).toEqual([])
  })

  it('ignores path-looking words git never knew, URLs and home paths', async () => {
    const r = repo()
    r.put('src/app.ts', '1\n')
    r.commit('initial', T0)
    const dir = tempDir()
    memoryAt(
      dir,
      'a.md',
      mem(
        'A',
        'misc',
        'Use and/or TCP/IP, see https://example.com/src/app.ts and ~/notes/todo.md; docs/guide.md is planned.',
      ),
      T0 + DAY,
    )
    expect(codeKinds(await new HealthChecker({ memoryDir: dir, projectRoot: r.root }).check())).toEqual([])
  })

  it('names missing package scripts and symbols no tracked file contains', async () => {
    const r = repo()
    r.put('package.json', JSON.stringify({ scripts: { build: 'tsc', ship: 'x' } }))
    r.put('src/host.ts', 'export function createHost() {}\n')
    r.commit('initial', T0)
    const dir = tempDir()
    memoryAt(
      dir,
      'a.md',
      mem(
        'Cmds',
        'commands',
        'Run `npm run build` then `npm run deploy`. Entry: `createHost()`, not `makeServer`.',
      ),
      T0 + DAY,
    )
    const report = await new HealthChecker({ memoryDir: dir, projectRoot: r.root }).check()
    expect(report.findings.filter((f) => f.kind !== 'unindexed').map((f) => [f.kind, f.subject])).toEqual([
      ['command-gone', 'npm run deploy'],
      ['symbol-gone', 'makeServer'],
    ])
  })
})

describe('index, duplicates and frontmatter', () => {
  it('finds orphans both ways: pointers to missing files and files with no pointer', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'a.md'), mem('A', 'first', 'x'))
    writeFile(join(dir, 'b.md'), mem('B', 'second', 'y'))
    writeFile(join(dir, 'team', 'c.md'), mem('C', 'team one', 'z'))
    writeFile(join(dir, 'MEMORY.md'), '# Index\n- [A](a.md) — first\n- [Gone](gone.md) — was here\n')
    writeFile(join(dir, 'team', 'MEMORY.md'), '- [C](c.md) — team\n- [D](./d.md) — gone too\n')
    const report = await new HealthChecker({ memoryDir: dir }).check()
    expect(kinds(report)).toEqual(['dead-pointer MEMORY.md', 'dead-pointer team/MEMORY.md', 'unindexed b.md'])
    expect(report.findings.find((f) => f.path === 'team/MEMORY.md')!.subject).toBe('team/d.md')
    expect(report.errors).toBe(2)
  })

  it('reads the index as agents load it: a pointer in an HTML comment block or the frontmatter points nowhere', async () => {
    const dir = tempDir()
    for (const n of ['a', 'b', 'c', 'd']) writeFile(join(dir, `${n}.md`), mem(n.toUpperCase(), n, 'x'))
    writeFile(
      join(dir, 'MEMORY.md'),
      [
        '---',
        'see: "[D](d.md)"',
        '---',
        '# Index',
        '<!-- - [A](a.md) — parked for now -->',
        '<!--',
        '- [B](b.md) — parked too',
        '- [Gone](gone.md) — an old line, commented out',
        '-->',
        '- [C](c.md) — loaded <!-- an inline note stays loaded -->',
        '',
      ].join('\r\n'),
    )
    const report = await new HealthChecker({ memoryDir: dir }).check()
    expect(kinds(report)).toEqual(['unindexed a.md', 'unindexed b.md', 'unindexed d.md'])
    expect(report.findings.find((f) => f.path === 'b.md')).toMatchObject({
      message:
        'Only in an HTML comment or the frontmatter of MEMORY.md, which agents do not load: they find it by recall alone',
      evidence: ['line 7: - [B](b.md) — parked too'],
    })
  })

  it('reads comments as agents do: an unclosed one hides nothing, text after a close is loaded, a comment in a list item stays', async () => {
    const dir = tempDir()
    for (const n of ['a', 'b', 'c', 'd', 'e']) writeFile(join(dir, `${n}.md`), mem(n.toUpperCase(), n, 'x'))
    writeFile(
      join(dir, 'MEMORY.md'),
      [
        '<!--',
        'old notes',
        '--> - [A](a.md) — after the close',
        '<!-- [B](b.md) --> the comment part of a loaded line',
        '- [C](c.md) — c',
        '  <!--',
        '  - [D](d.md) — in a list item',
        '  -->',
        '<!-- never closed',
        '- [E](e.md) — after it',
        '- [Gone](gone.md) — dead, and loaded',
        '',
      ].join('\n'),
    )
    const report = await new HealthChecker({ memoryDir: dir }).check()
    expect(kinds(report)).toEqual(['dead-pointer MEMORY.md', 'unindexed b.md'])
    // A long maintainer note in a comment is no over-long index line: agents never load it.
    writeFile(
      join(dir, 'MEMORY.md'),
      `<!-- ${'a note for maintainers '.repeat(20)} -->\n- [A](a.md)\n- [B](b.md)\n- [C](c.md)\n- [D](d.md)\n- [E](e.md)\n`,
    )
    expect(kinds(await new HealthChecker({ memoryDir: dir }).check())).toEqual([])
    expect(report.findings.find((f) => f.path === 'b.md')!.evidence).toEqual([
      'line 4: <!-- [B](b.md) --> the comment part of a loaded line',
    ])
  })

  it('an index nested too deeply to read as Markdown, with a comment in it: one warning, and every other check still runs', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'a.md'), mem('A', 'a', 'x'))
    writeFile(join(dir, 'MEMORY.md'), `<!-- note -->\n${'>'.repeat(30_000)} deep\n- [Gone](gone.md) — dead\n`)
    const report = await new HealthChecker({ memoryDir: dir }).check()
    // The 30,000-character line is also past the cut, and long.
    expect(kinds(report)).toEqual([
      'dead-pointer MEMORY.md',
      'index-cut MEMORY.md',
      'index-unreadable MEMORY.md',
      'long-index-line MEMORY.md',
      'unindexed a.md',
    ])
    expect(report.findings.find((f) => f.kind === 'index-unreadable')!.message).toMatch(
      /Claude Code may load none of it/,
    )
  })

  it('reports each index link that leads out of its dir, however it is spelled, once and not as a dead pointer', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'a.md'), mem('A', 'first', 'x'))
    writeFile(join(dir, 'team', 'c.md'), mem('C', 'team one', 'z'))
    writeFile(
      join(dir, 'MEMORY.md'),
      '- [A](a.md) — first\n- [Keys](../../../.ssh/id_rsa.md) and [C](team/c.md)\n- [Rc](/home/me/.bashrc)\n',
    )
    writeFile(join(dir, 'team', 'MEMORY.md'), '- [C](c.md) — team\n- [A](%2e%2e/a.md) — a private one\n')
    const report = await new HealthChecker({ memoryDir: dir }).check()
    expect(kinds(report)).toEqual([
      'link-outside MEMORY.md',
      'link-outside MEMORY.md',
      'link-outside team/MEMORY.md',
    ])
    expect(report.findings.map((f) => [f.message, f.evidence])).toEqual([
      [
        'Links to ../../../.ssh/id_rsa.md, outside the memory dir: an agent that loads this index is sent to a file that is not memory',
        ['line 2: - [Keys](../../../.ssh/id_rsa.md) and [C](team/c.md)'],
      ],
      [
        'Links to /home/me/.bashrc, outside the memory dir: an agent that loads this index is sent to a file that is not memory',
        ['line 3: - [Rc](/home/me/.bashrc)'],
      ],
      [
        'Links to %2e%2e/a.md, outside team/: an agent that loads this index is sent to a file that is not memory',
        ['line 2: - [A](%2e%2e/a.md) — a private one'],
      ],
    ])
    expect(report.errors).toBe(3)
  })

  it('says what is wrong with a type and what to write instead', async () => {
    const dir = tempDir()
    const typed = (type: string) => `---\nname: N\ndescription: d\ntype: ${type}\n---\nbody\n`
    writeFile(join(dir, 'list.md'), typed('[user]'))
    writeFile(join(dir, 'caps.md'), typed('Feedback'))
    writeFile(join(dir, 'odd.md'), typed('todo'))
    writeFile(join(dir, 'none.md'), '---\nname: N\ndescription: d\n---\nbody\n')
    writeFile(join(dir, 'empty.md'), typed(''))
    const report = await new HealthChecker({ memoryDir: dir }).check()
    const said = Object.fromEntries(
      report.findings.filter((f) => f.kind === 'invalid-frontmatter').map((f) => [f.path, f.message]),
    )
    expect(said).toEqual({
      'list.md': 'The type is a list (["user"]): write one word, user, feedback, project or reference',
      'caps.md':
        'Type "Feedback" is written in capitals: types are lower-case (user, feedback, project or reference)',
      'odd.md': 'Unknown type "todo" (user, feedback, project or reference)',
      'none.md': 'No type (user, feedback, project or reference)',
      'empty.md': 'No type (user, feedback, project or reference)',
    })
    const evidence = Object.fromEntries(
      report.findings.filter((f) => f.kind === 'invalid-frontmatter').map((f) => [f.path, f.evidence]),
    )
    expect(evidence).toEqual({
      'list.md': ['type: ["user"]'],
      'caps.md': ['type: Feedback'],
      'odd.md': ['type: todo'],
      'none.md': [],
      'empty.md': [],
    })
  })

  it('reports index lines past the 200-line limit as cut', async () => {
    const dir = tempDir()
    const lines = Array.from({ length: 230 }, (_, i) => `- [M${i}](m${i}.md) — memory ${i}`)
    for (let i = 0; i < 230; i++)
      writeFile(join(dir, `m${i}.md`), mem(`M${i}`, `memory ${i}`, `fact ${i} ${'w'.repeat(i)}`))
    writeFile(join(dir, 'MEMORY.md'), lines.join('\n') + '\n')
    const report = await new HealthChecker({ memoryDir: dir }).check()
    const cut = report.findings.find((f) => f.kind === 'index-cut')!
    expect(cut.message).toMatch(/^30 lines are past what Claude Code loads/)
    expect(cut.evidence[0]).toBe('line 201: - [M200](m200.md) — memory 200')
  })

  it('near-duplicates above the threshold are reported, below it not; same names always', async () => {
    const dir = tempDir()
    const base =
      'Integration tests must hit a real Postgres database, never mocks, because a mocked migration passed while prod broke last quarter'
    writeFile(join(dir, 'a.md'), mem('Real DB in tests', 'no mocks', base))
    writeFile(join(dir, 'b.md'), mem('Tests use the real DB', 'no mocks', base + ' and we lost a day'))
    writeFile(
      join(dir, 'c.md'),
      mem(
        'Other',
        'unrelated',
        'Integration tests must hit a real Redis cache with seeded keys so that eviction is covered',
      ),
    )
    writeFile(
      join(dir, 'd.md'),
      mem('real db in tests', 'something else', 'Deploys go out on Tuesdays only.'),
    )
    writeFile(
      join(dir, 'MEMORY.md'),
      ['a', 'b', 'c', 'd'].map((x) => `- [${x}](${x}.md) — ${x}`).join('\n') + '\n',
    )
    const report = await new HealthChecker({ memoryDir: dir }).check()
    const pairs = report.findings.map((f) => [f.kind, f.path, f.other])
    expect(pairs).toEqual([
      ['duplicate-name', 'a.md', 'd.md'],
      ['near-duplicate', 'a.md', 'b.md'],
    ])
  })

  it('flags invalid and weak frontmatter, oversized files, and secrets (team ones as errors)', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'none.md'), 'just text\n')
    writeFile(join(dir, 'upper.md'), '---\nname: U\ndescription: d\ntype: User\n---\n\nx\n')
    writeFile(join(dir, 'nodesc.md'), '---\nname: N\ntype: user\n---\n\nx\n')
    writeFile(
      join(dir, 'multi.md'),
      '---\nname: M\ndescription: |\n  line one\n  line two\ntype: user\n---\n\nx\n',
    )
    writeFile(join(dir, 'big.md'), mem('Big', 'large', 'word '.repeat(2000)))
    writeFile(join(dir, 'key.md'), mem('Key', 'a key', 'token ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'))
    writeFile(
      join(dir, 'team', 'key.md'),
      mem('Team key', 'a key', 'token ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'),
    )
    const report = await new HealthChecker({ memoryDir: dir }).check()
    const own = report.findings
      .filter((f) => !['unindexed', 'dead-pointer', 'near-duplicate'].includes(f.kind))
      .map((f) => `${f.severity} ${f.kind} ${f.path}`)
      .sort()
    expect(own).toEqual([
      'error invalid-frontmatter none.md',
      'error invalid-frontmatter upper.md',
      'error secret team/key.md',
      'info oversized big.md',
      'warning secret key.md',
      'warning weak-frontmatter multi.md',
      'warning weak-frontmatter nodesc.md',
    ])
  })

  it('flags a team memory whose file name is itself a credential: it is never uploaded', async () => {
    const dir = tempDir()
    const name = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8' + '.md'
    writeFile(join(dir, 'team', name), mem('CI', 'where the CI token lives', 'in 1Password, vault CI'))
    const report = await new HealthChecker({ memoryDir: dir }).check()
    const secret = report.findings.filter((f) => f.kind === 'secret')
    expect(secret.map((f) => [f.severity, f.path, f.evidence])).toEqual([
      ['error', `team/${name}`, ['its name: GitHub token']],
    ])
  })

  it('reads only the start of a huge memory, and gives its real size', async () => {
    const dir = tempDir()
    const huge = mem('Huge', 'a log pasted in', 'x'.repeat(99) + '\n').padEnd(3 * 1024 * 1024, 'y\n')
    writeFile(join(dir, 'huge.md'), huge)
    const report = await new HealthChecker({ memoryDir: dir }).check()
    const found = report.findings.find((f) => f.kind === 'oversized')!
    expect(found.path).toBe('huge.md')
    expect(found.message).toMatch(/^3,145,728 bytes, over [\d,]+ lines: recall injects only the first/)
  })

  it('re-reads only the memories the watcher reports changed', async () => {
    const dir = tempDir()
    for (let i = 0; i < 20; i++) writeFile(join(dir, `m${i}.md`), mem(`M${i}`, `d${i}`, `fact ${i}`))
    const checker = new HealthChecker({ memoryDir: dir })
    expect((await checker.check()).rechecked.memories).toBe(20)
    expect((await checker.check()).rechecked.memories).toBe(0)
    writeFile(join(dir, 'm3.md'), '---\nname: M3\ntype: nope\n---\n')
    checker.invalidate(['m3.md'])
    const r = await checker.check()
    expect(r.rechecked.memories).toBe(1)
    expect(r.findings.filter((f) => f.path === 'm3.md').map((f) => f.kind)).toContain('invalid-frontmatter')
  })
})
