import { readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { compactIndex, type FixOutcome, fixPointers, mergeProposalFiles } from './fixes.js'
import { findIndexLine, formatIndexLine } from '../store/index-lines.js'
import type { Finding } from './findings.js'

const finding = { kind: 'index-too-long', path: 'MEMORY.md' } as unknown as Finding

describe('compactIndex', () => {
  it('keeps the index’s CRLF line endings, and appends to a details memory without touching its frontmatter', async () => {
    const dir = tempDir()
    const long = 'x'.repeat(200)
    writeFile(
      join(dir, 'MEMORY.md'),
      [
        '# Memory',
        '- [A](a.md) — alpha',
        'A note that sits in the index itself.',
        `- [B](b.md) — ${long}`,
        '',
      ].join('\r\n'),
    )
    const details =
      '---\r\nname: My details\r\ndescription: kept by me # my comment\r\ntype: reference\r\n---\r\n\r\nold note\r\n'
    writeFile(join(dir, 'index-details.md'), details)
    const changed = await compactIndex(dir, finding)
    expect(changed).toEqual(['MEMORY.md', 'index-details.md'])
    const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8')
    expect(index.split('\r\n')[0]).toBe('# Memory')
    expect(index.replaceAll('\r\n', '')).not.toContain('\n') // no line lost its CR
    expect(index).toContain('- [A](a.md) — alpha\r\n')
    expect(index).not.toContain('A note that sits')
    expect(readFileSync(join(dir, 'index-details.md'), 'utf8')).toBe(
      details + '\r\nA note that sits in the index itself.\r\n',
    )
  })

  it('never moves a line that points at a memory out of the index: a numbered list, a wikilink, a sentence', async () => {
    const dir = tempDir()
    const kept = [
      '1. [Deploys](deploys.md) — how we ship',
      '- [[testing|Testing]] — real DB only',
      'Before a release read [the checklist](checklist.md).',
      '- [[index-details]] — the details memory, linked the Obsidian way',
    ]
    writeFile(join(dir, 'MEMORY.md'), [...kept, 'A note that sits in the index itself.', ''].join('\n'))
    writeFile(
      join(dir, 'index-details.md'),
      '---\nname: Details\ndescription: d\ntype: reference\n---\n\nold\n',
    )
    await compactIndex(dir, finding)
    // The index keeps every pointer and gains no second one to the details memory.
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(kept.join('\n') + '\n')
    expect(readFileSync(join(dir, 'index-details.md'), 'utf8')).toContain(
      'A note that sits in the index itself.',
    )
  })
  it('leaves what agents do not load as it is: a comment block stays whole and closed, and moves nowhere', async () => {
    const dir = tempDir()
    const index = [
      '# Memory',
      '<!--',
      'Maintainer notes, several lines of them,',
      'that agents never load.',
      '-->',
      '<!-- one more --> A note after a comment.',
      '- [A](a.md) — alpha',
      'A note that sits in the index itself.',
      '',
    ]
    writeFile(join(dir, 'MEMORY.md'), index.join('\n'))
    await compactIndex(dir, finding)
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(
      [
        ...index.slice(0, 7),
        '- [Details moved out of MEMORY.md](index-details.md) — notes that used to sit in the index',
        '',
      ].join('\n'),
    )
    expect(readFileSync(join(dir, 'index-details.md'), 'utf8')).toMatch(
      /\n\nA note that sits in the index itself\.\n$/,
    )
  })

  it('puts the pointer to the moved text where the text stood: an index still past its cut keeps it in view', async () => {
    const dir = tempDir()
    const pointers = Array.from({ length: 230 }, (_, i) => `- [M${i}](m${i}.md) — memory ${i}`)
    writeFile(
      join(dir, 'MEMORY.md'),
      ['# Memory', '', 'Ask Dana before touching billing.', '', ...pointers, ''].join('\n'),
    )
    await compactIndex(dir, finding)
    const lines = readFileSync(join(dir, 'MEMORY.md'), 'utf8').split('\n')
    expect(lines.slice(0, 4)).toEqual([
      '# Memory',
      '',
      '- [Details moved out of MEMORY.md](index-details.md) — notes that used to sit in the index',
      '',
    ])
    expect(lines.slice(4, -1)).toEqual(pointers)
    expect(readFileSync(join(dir, 'index-details.md'), 'utf8')).toContain('Ask Dana before touching billing.')
  })

  it('keeps a long line that also links another memory: shortening it would drop that pointer', async () => {
    const dir = tempDir()
    const line = `- [A](a.md) — ${'detail '.repeat(20)}see also [B](b.md) for the rollback`
    writeFile(join(dir, 'MEMORY.md'), `# Memory\n${line}\n`)
    await compactIndex(dir, finding)
    const after = readFileSync(join(dir, 'MEMORY.md'), 'utf8')
    expect(after).toBe(`# Memory\n${line}\n`)
    expect(findIndexLine(after.split('\n'), 'b.md')).toBe(1)
  })

  it("moves no text when taking it out would hide a pointer agents load (a list item's indented comment)", async () => {
    const dir = tempDir()
    const long = 'x'.repeat(200)
    const index = [
      '# Memory',
      '- a list item of prose, no link',
      '  <!--',
      '  - [Zeta](zeta.md) — loaded: a comment inside a list item is not stripped',
      '  -->',
      `- [A](a.md) — ${long}`,
      '',
    ]
    writeFile(join(dir, 'MEMORY.md'), index.join('\n'))
    await compactIndex(dir, finding)
    const after = readFileSync(join(dir, 'MEMORY.md'), 'utf8')
    expect(after).toBe([...index.slice(0, 5), formatIndexLine('A', 'a.md', long), ''].join('\n'))
    expect(findIndexLine(after.split('\n'), 'zeta.md')).toBe(3)
  })

  it('keeps a line that starts a comment it never closes: moving lines must not make or end a comment', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'MEMORY.md'), '# Memory\n<!-- draft, never closed\n- [A](a.md) — alpha\nA note.\n')
    await compactIndex(dir, finding)
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8').split('\n').slice(0, 3)).toEqual([
      '# Memory',
      '<!-- draft, never closed',
      '- [A](a.md) — alpha',
    ])
  })
})

describe('fixPointers', () => {
  const memo = (n: string) => `---\nname: ${n}\ndescription: ${n} hook\ntype: project\n---\n\nbody\n`
  const unindexed = (path: string) => ({ kind: 'unindexed', path }) as unknown as Finding
  /** What happened to each finding, in the order the outcomes came. */
  const byFinding = (out: FixOutcome[]) =>
    out.map((o) => [o.finding.path, 'changed' in o ? o.changed : 'failed'])
  /** A memory dir with an index of one heading and these memories (file: name). */
  const dirWith = (memories: Record<string, string>) => {
    const dir = tempDir()
    writeFile(join(dir, 'MEMORY.md'), '# Memory\n')
    for (const [file, name] of Object.entries(memories)) writeFile(join(dir, file), memo(name))
    return dir
  }

  it('adds the pointers of the memories still there, and fails only the one deleted since the check', async () => {
    const dir = dirWith({ 'one.md': 'One', 'three.md': 'Three', 'team/four.md': 'Four' })
    const out = await fixPointers(
      dir,
      'add-pointer',
      ['one.md', 'two.md', 'three.md', 'team/four.md'].map(unindexed),
    )
    expect(byFinding(out)).toEqual([
      ['two.md', 'failed'],
      ['one.md', ['MEMORY.md']],
      ['three.md', ['MEMORY.md']],
      ['team/four.md', ['team/MEMORY.md']],
    ])
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(
      '# Memory\n- [One](one.md) — One hook\n- [Three](three.md) — Three hook\n',
    )
    expect(readFileSync(join(dir, 'team/MEMORY.md'), 'utf8')).toBe('- [Four](four.md) — Four hook\n')
  })

  it('fails alone a memory whose file name no pointer may hold (a bidi control in it), and adds the others', async () => {
    const dir = dirWith({ 'one.md': 'One', 'odd\u202ename.md': 'Odd', 'two.md': 'Two' })
    const out = await fixPointers(dir, 'add-pointer', ['one.md', 'odd\u202ename.md', 'two.md'].map(unindexed))
    expect(byFinding(out)).toEqual([
      ['odd\u202ename.md', 'failed'],
      ['one.md', ['MEMORY.md']],
      ['two.md', ['MEMORY.md']],
    ])
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(
      '# Memory\n- [One](one.md) — One hook\n- [Two](two.md) — Two hook\n',
    )
  })

  it('fails every finding of an index it may not write, and still fixes the other index', async () => {
    const dir = tempDir()
    const outside = tempDir()
    writeFile(join(outside, 'MEMORY.md'), '- [Gone](gone.md) — x\n')
    symlinkSync(join(outside, 'MEMORY.md'), join(dir, 'MEMORY.md'))
    writeFile(join(dir, 'team/MEMORY.md'), '- [Team gone](team_gone.md) — x\n')
    const dead = (subject: string) =>
      ({ kind: 'dead-pointer', path: 'MEMORY.md', subject }) as unknown as Finding
    const out = await fixPointers(dir, 'remove-pointer', [dead('gone.md'), dead('team/team_gone.md')])
    expect(out.map((o) => ('changed' in o ? o.changed : 'failed'))).toEqual(['failed', ['team/MEMORY.md']])
    expect(readFileSync(join(outside, 'MEMORY.md'), 'utf8')).toBe('- [Gone](gone.md) — x\n')
    expect(readFileSync(join(dir, 'team/MEMORY.md'), 'utf8')).toBe('')
  })
})

describe('mergeProposalFiles', () => {
  it("proposes the kept memory edited in place: its frontmatter as written, CRLF kept, the other's new lines added", async () => {
    const dir = tempDir()
    const keep =
      '---\r\nname: "Deploys"  # the team calls it this\r\ndescription: how we ship\r\ntype: project\r\n---\r\n\r\nShip on Tuesdays.\r\nTag the release.\r\n'
    writeFile(join(dir, 'deploys.md'), keep)
    writeFile(
      join(dir, 'shipping.md'),
      '---\nname: Shipping\ndescription: shipping days\ntype: project\n---\n\nShip on Tuesdays.\nNever on Fridays.\n',
    )
    writeFile(
      join(dir, 'MEMORY.md'),
      '- [Deploys](deploys.md) — how we ship\n- [Shipping](shipping.md) — shipping days\n',
    )
    const files = await mergeProposalFiles(dir, {
      kind: 'duplicate',
      path: 'deploys.md',
      other: 'shipping.md',
    } as unknown as Finding)
    expect(files.find((f) => f.path === 'deploys.md')!.after).toBe(
      '---\r\nname: "Deploys"  # the team calls it this\r\ndescription: how we ship\r\ntype: project\r\n---\r\n\r\nShip on Tuesdays.\r\nTag the release.\r\n\r\nNever on Fridays.\r\n',
    )
    expect(files.find((f) => f.path === 'shipping.md')!.after).toBeNull()
    expect(files.find((f) => f.path === 'MEMORY.md')!.after).toBe('- [Deploys](deploys.md) — how we ship\n')
  })
})
