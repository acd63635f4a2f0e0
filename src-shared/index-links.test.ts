import { describe, expect, it } from 'vitest'
import {
  indexLinkProblem,
  indexLinksIn,
  linkDestination,
  linksLeavingIndex,
  linksTo,
  retargetLink,
} from './index-links.js'

const targets = (line: string) => indexLinksIn(line).map((l) => l.decoded)

describe('the links of a MEMORY.md line, however they are written', () => {
  it.each([
    ['- [T](file.md) — hook', 'file.md'],
    ['- [T](./file.md)', 'file.md'],
    ['- [T](<my file.md>) — angle brackets', 'my file.md'],
    ['- [T](my%20file.md)', 'my file.md'],
    ['- [T](file.md "a tooltip") — with a title', 'file.md'],
    ["- [T](file.md 'single')", 'file.md'],
    ['* [T]( file.md ) star bullet, spaces inside', 'file.md'],
    ['- [T](my file.md) — an older bare name with a space', 'my file.md'],
    ['[ref]: file.md', 'file.md'],
    ['[ref]: <my file.md> "title"', 'my file.md'],
    ['- [T](team%2Fx.md)', 'team%2Fx.md'],
    ['- [T](100%.md) — a literal percent', '100%.md'],
    ['- [日本](日本語のメモ.md)', '日本語のメモ.md'],
    ['- [[deploy notes]] — an Obsidian wikilink', 'deploy notes.md'],
    ['- [[deploy.md|Deploy]]', 'deploy.md'],
    ['- [[ ./team/deploy#Rollback|how]]', 'team/deploy.md'],
    ['- [[v1.2 release]]', 'v1.2 release.md'],
    ['- ![[runbook]] embedded', 'runbook.md'],
    ['- [T](r-[[w]].md) — a file name with double brackets', 'r-[[w]].md'],
    ['- [T](<a [[b]] c.md>)', 'a [[b]] c.md'],
  ])('%s → %s', (line, target) => {
    expect(targets(line)).toEqual([target])
  })

  it('finds every link of a line, and none that is no memory file', () => {
    expect(
      targets('See [a](a.md) and [b](<b c.md>), not [site](https://x.dev/a.md) or [abs](/etc/x.md)'),
    ).toEqual(['a.md', 'b c.md'])
    expect(targets('- [T](notes.txt) and [T](https://example.com)')).toEqual([])
    expect(targets('- plain text mentioning file.md')).toEqual([])
    expect(targets('- ![[diagram.png]] and [[a]] then [b](b.md) and [[c|C]]')).toEqual([
      'a.md',
      'b.md',
      'c.md',
    ])
  })

  it("reads a link to a heading as a link to its file, and a # before .md as the file's own", () => {
    expect(targets('- [T](notes.md#why) and [U](<my file.md#a-b>), [V](x.md?plain=1) [[y#h]]')).toEqual([
      'notes.md',
      'my file.md',
      'x.md',
      'y.md',
    ])
    expect(targets('- [T](c#notes.md) — a file named so')).toEqual(['c#notes.md'])
    expect(targets('- [T](#why) — a heading of MEMORY.md itself')).toEqual([])
    const line = '- [T](notes.md#why) — hook'
    expect(retargetLink(line, indexLinksIn(line)[0]!, 'new.md')).toBe('- [T](new.md#why) — hook')
  })

  it('a renamed link keeps how its writer spelled it: ./, <…>, percent-encoding', () => {
    const renamed = (line: string, to: string) => retargetLink(line, indexLinksIn(line)[0]!, to)
    expect(renamed('- [T](./deploy.md) — d', 'ship.md')).toBe('- [T](./ship.md) — d')
    expect(renamed('- [T](<deploy.md>) — d', 'ship.md')).toBe('- [T](<ship.md>) — d')
    expect(renamed('- [T](my%20deploy.md#why) — d', 'our ship.md')).toBe('- [T](our%20ship.md#why) — d')
    // A name that needs <…> gets them, whatever the line had.
    expect(renamed('- [T](./deploy.md) — d', 'ship (old).md')).toBe('- [T](<./ship (old).md>) — d')
    expect(renamed('- [T](my%20deploy.md) — d', 'ship (old).md')).toBe('- [T](<ship%20(old).md>) — d')
    expect(renamed('[t]: ./deploy.md', 'ops/ship.md')).toBe('[t]: ./ops/ship.md')
    // Each still leads where it was sent.
    for (const line of ['- [T](<ship%20(old).md>)', '- [T](<./ship (old).md>)'])
      expect(linksTo(indexLinksIn(line)[0]!, 'ship (old).md')).toBe(true)
  })

  it('matches a pointer by the name as written or as decoded', () => {
    const [pct] = indexLinksIn('- [T](a%20b.md)')
    expect(linksTo(pct!, 'a b.md')).toBe(true)
    expect(linksTo(pct!, 'a%20b.md')).toBe(true) // a file literally named so
    expect(linksTo(pct!, 'a.md')).toBe(false)
  })

  it('knows where the destination stands, brackets included, so a rename replaces only it', () => {
    const line = '- [T](<my file.md> "tip") — hook'
    const [l] = indexLinksIn(line)
    expect(line.slice(l!.start, l!.end)).toBe('<my file.md>')
    expect(line.slice(l!.after)).toBe(' — hook')
  })

  it('writes a destination CommonMark reads back: <…> around a space or parenthesis', () => {
    expect(linkDestination('file.md')).toBe('file.md')
    expect(linkDestination('my file.md')).toBe('<my file.md>')
    expect(linkDestination('a (draft).md')).toBe('<a (draft).md>')
    for (const name of ['file.md', 'my file.md', 'a (draft).md'])
      expect(targets(`- [T](${linkDestination(name)}) — hook`)).toEqual([name])
  })

  it('a wikilink names a file in any folder by its name, as Obsidian finds it; a path only there', () => {
    const [bare] = indexLinksIn('- [[testing]]')
    expect(linksTo(bare!, 'testing.md')).toBe(true)
    expect(linksTo(bare!, 'policies/testing.md')).toBe(true)
    expect(linksTo(bare!, 'policies/other-testing.md')).toBe(false)
    const [pathed] = indexLinksIn('- [[policies/testing]]')
    expect(linksTo(pathed!, 'policies/testing.md')).toBe(true)
    expect(linksTo(pathed!, 'old/policies/testing.md')).toBe(false)
  })

  it('reads a line built to make a regular expression backtrack without stalling (each took minutes once)', () => {
    const lines = [
      '- [x](a' + ' '.repeat(200_000) + 'b',
      '- [x](' + 'ab '.repeat(70_000),
      '- [x](a ' + '"'.repeat(200_000),
      '](a'.repeat(70_000),
      '[['.repeat(70_000) + 'x',
      '[[a#' + '#'.repeat(200_000),
    ]
    const started = performance.now()
    for (const line of lines) expect(indexLinksIn(line)).toEqual([])
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('reads a line of many Markdown links and wikilinks in one pass, not one per pair', () => {
    const n = 50_000
    const line = '- ' + Array.from({ length: n }, (_, i) => `[a](f${i}.md) [[w${i}]]`).join(' ')
    const started = performance.now()
    expect(indexLinksIn(line)).toHaveLength(2 * n)
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})

describe('links that lead out of an index dir', () => {
  const leaving = (text: string) => linksLeavingIndex(text).map((l) => l.destination)

  it('finds absolute, home, file: and drive paths and every spelling of climbing above the dir', () => {
    expect(
      leaving(
        [
          '- [a](../../../../etc/passwd.md) — up',
          '- [b](/home/me/.ssh/id_rsa) — absolute, no .md',
          '- [c](~/notes/private.md)',
          '- [d](file:///etc/shadow)',
          '- [e](C:/Users/me/secrets.md)',
          '- [f](%2e%2e/%2e%2e/x.md) and [g](..%2F..%2Fy.md)',
          '- [h](..\\..\\z.md)',
          '- [i](．．/．．/w.md)',
          '- [j](sub/../../k.md)',
          '[ref]: ../../ref.md',
          '- [[../../../.ssh/config]] and ![[/etc/hosts]]',
          '- the key: <file:///home/me/.ssh/id_rsa> and <FILE:/etc/shadow>',
        ].join('\n'),
      ),
    ).toEqual([
      '../../../../etc/passwd.md',
      '/home/me/.ssh/id_rsa',
      '~/notes/private.md',
      'file:///etc/shadow',
      'C:/Users/me/secrets.md',
      '%2e%2e/%2e%2e/x.md',
      '..%2F..%2Fy.md',
      '..\\..\\z.md',
      '．．/．．/w.md',
      'sub/../../k.md',
      '../../ref.md',
      '../../../.ssh/config.md',
      '/etc/hosts.md',
      'file:///home/me/.ssh/id_rsa',
      'FILE:/etc/shadow',
    ])
  })

  it('leaves memory files, a climb that stays inside, web links and plain text alone', () => {
    expect(
      leaving(
        [
          '- [T](testing.md) — hook',
          '- [T](./team/deploy.md) and [U](<my file.md>)',
          '- [V](sub/../v.md) stays in',
          '- [site](https://example.com/../../a.md) and [mail](mailto:a@b.c)',
          '- mentions ../../etc/passwd in prose, not as a link',
          '- autolinks to the web: <https://wiki.example/deploy> and <mailto:ops@example.com>',
          '- [angled](<team/x.md>) is read once, as the link it is',
        ].join('\n'),
      ),
    ).toEqual([])
  })

  it('says which line leads where, and how many more', () => {
    expect(indexLinkProblem('- [ok](a.md)\n- [x](../x.md)\n- [y](/y.md)\n', 'team/')).toBe(
      'line 2 links to "../x.md", outside team/ (and 1 more): an index links memory files and web pages only',
    )
    expect(indexLinkProblem('- [ok](a.md)\n')).toBeUndefined()
  })
})
