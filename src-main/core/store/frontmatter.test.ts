import { describe, expect, it } from 'vitest'
import {
  frontmatterProblem,
  kebabSlug,
  parseMemoryFile,
  parseMemoryHeaderFields,
  parseSimpleFrontmatter,
  serializeMemoryFile,
} from './frontmatter.js'

const samples = [
  '---\nname: Testing policy\ndescription: Integration tests hit the real DB\ntype: feedback\n---\n\nbody\n',
  '---\r\nname: CRLF file\r\ndescription: written on Windows\r\ntype: user\r\n---\r\nbody',
  '---\nname: With comment\ndescription: triaged in the #ci-alerts channel\ntype: reference\n---\n',
  '---\nname: Comment after value\ndescription: real DB # not mocks\n---\n',
  '---\nname: "Quoted: name"\ndescription: \'single\'\ntype: project\n---\nx',
  '---\nname: 42\ndescription: 3.5\n---\n',
  '---\nname: Dated\ndescription: 2026-03-05\n---\n',
  '---\nname: true\ndescription: null\n---\n',
  '---\nname: list\ndescription:\n  - a\n  - b\n---\n',
  '---\nname: [unclosed\ndescription: x\n---\n',
  '---\nname: no fence\ndescription: x\n',
  'no frontmatter at all\n',
  '---\nname: Colon inside: tricky\ndescription: ok\n---\n',
  '---\nname: url\ndescription: see https://grafana.internal/d/checkout?x=1\ntype: reference\n---\n',
  '---\nname: Tabs\t\ndescription:\tvalue with tab\n---\n',
  '---\noriginSessionId: abc-123\nname: extra keys\ndescription: kept\ntype: project\n---\nbody',
  '---\nname: C# tips\ndescription: F#, C# and  two  spaces\n---\n',
  '---\nname: NULL\ndescription: Yes\ntype: ~\n---\n',
  '---\nname: On\ndescription: offline first\n---\n',
  '---\nname: -1 tip\ndescription: .5 of it\n---\n',
  '---\nname: - dash\ndescription: ? what\n---\n',
  '---\nname: +x\ndescription: ends with colon:\n---\n',
  '---\nname: tab\tinside\ndescription: nbsp\u00a0here\n---\n',
  '---\nname: deploy-freeze\ndescription: No deploys on Fridays\nmetadata:\n  type: project\n---\n\nLinks [[release-train]].\n',
  '---\nname: nested-odd\ndescription: x\nmetadata:\n  type: project\n  owner: ops\nextra: 1\n---\n',
  '---\nname: empty-meta\ndescription: x\nmetadata:\n---\n',
  '---\nname: .inf\ndescription: .nan\n---\n',
  '---\nname: "Plain quoted"\ndescription: "it has: a colon and # hash"\ntype: user\n---\n',
  "---\nname: 'it''s quoted'\ndescription: 'single: with colon'\n---\n",
  '---\nname: "escaped \\" quote"\ndescription: "tab\\tescape"\n---\n',
  '---\nname: Rule\ndescription: Deploy: never on Fridays\ntype: feedback\n---\n',
  '---\nname: Rule # note\ndescription: Deploy: never on Fridays\n---\n',
  '---\nname: 007\ndescription: a: b\n---\n',
  '---\nname: 2026 plans\ndescription: 3 tips for 0x1F and 1e5x\n---\n',
  '---\nname: 0x1F\ndescription: 1e5\n---\n',
  '---\nname: .hidden files\ndescription: .5\n---\n',
  '---\nname: x\ndescription: y\nmetadata:\n  type: a: b\n---\n',
]

/** The shapes Claude Code writes, all read without loading the YAML library. */
const fastPathBlocks = [
  'name: Testing policy\ndescription: Integration tests hit the real DB\ntype: feedback\n',
  'name: "Quoted: name"\ndescription: \'single\'\ntype: project\n',
  "name: 'it''s quoted'\ndescription: 'single: with colon'\n",
  'name: Rule\ndescription: Deploy: never on Fridays\ntype: feedback\n',
  'name: Dated\ndescription: 2026-03-05 release and 3 tips\n',
  'name: deploy-freeze\ndescription: No deploys on Fridays\nmetadata:\n  type: project\n',
]

describe('frontmatter parsing', () => {
  it.each(samples)('the fast path agrees with the YAML path: %j', (text) => {
    expect(parseMemoryFile(text)).toEqual(parseMemoryFile(text, { fastPath: false }))
  })

  it.each(fastPathBlocks)('reads common frontmatter without the YAML library: %j', (block) => {
    expect(parseSimpleFrontmatter(block)).toBeDefined()
  })

  it.each(samples)('the header-only parse gives the same fields: %j', (text) => {
    const { name, description, type, format } = parseMemoryFile(text)
    expect(parseMemoryHeaderFields(text)).toEqual({ name, description, type, format })
  })

  it.each([
    ['Deploy: never on Fridays', 'Deploy: never on Fridays'],
    ['*bold* rule', '*bold* rule'],
    ['@oncall owns this', '@oncall owns this'],
    ['{service} names are kebab-case', '{service} names are kebab-case'],
    ['`npm test` before push: always', '`npm test` before push: always'],
  ])('when YAML fails on %j, the value is read quoted', (raw, expected) => {
    const text = `---\nname: Rule\ndescription: ${raw}\ntype: feedback\n---\nbody\n`
    expect(parseMemoryFile(text)).toMatchObject({ name: 'Rule', description: expected, type: 'feedback' })
  })

  it('matches type case-sensitively', () => {
    expect(parseMemoryFile('---\nname: a\ndescription: b\ntype: User\n---\n').type).toBeUndefined()
    expect(parseMemoryFile('---\nname: a\ndescription: b\ntype: user\n---\n').type).toBe('user')
  })

  it('an unclosed block is no frontmatter: everything is body', () => {
    const text = '---\nname: open\ndescription: never closed\n\nbody'
    expect(parseMemoryFile(text)).toMatchObject({ name: undefined, description: null, body: text })
  })

  it('dates stay YYYY-MM-DD', () => {
    expect(parseMemoryFile('---\nname: d\ndescription: 2026-03-05\nsince: 2026-01-02\n---\n')).toMatchObject({
      description: '2026-03-05',
      data: { since: '2026-01-02' },
    })
  })

  it('reads the newer format: kebab-case name and metadata.type', () => {
    expect(parseMemoryFile(samples[23]!)).toMatchObject({
      name: 'deploy-freeze',
      type: 'project',
      format: 'nested',
      body: 'Links [[release-train]].\n',
    })
    expect(parseMemoryFile(samples[0]!).format).toBe('flat')
  })

  it('bad YAML never throws: the file keeps its body', () => {
    const text = '---\nname: [a\n  b: {\n---\nbody'
    expect(parseMemoryFile(text)).toMatchObject({ description: null })
  })
})

describe('serializeMemoryFile', () => {
  it('round-trips what it serializes', () => {
    for (const description of [
      'plain words',
      'has: colon',
      'has #hash',
      'STAGE=staging',
      "it's fine",
      '"quoted"',
      '- dash first',
      'Deploy: never on Fridays',
      '2026-03-05',
      'yes',
    ]) {
      const text = serializeMemoryFile({ name: 'N', description, type: 'project', body: 'b\n' })
      expect(parseMemoryFile(text)).toMatchObject({ name: 'N', description, type: 'project', body: 'b\n' })
    }
  })

  it('a value can never inject a field', () => {
    const text = serializeMemoryFile({
      name: 'x\ntype: user',
      description: 'd\ninjected: true',
      type: 'user\ndescription: injected' as never,
      body: '',
    })
    const parsed = parseMemoryFile(text)
    expect(parsed.type).toBeUndefined()
    expect(parsed.data).not.toHaveProperty('injected')
    expect(parsed.description).toBe('d injected: true')
    expect(Object.keys(parsed.data)).toEqual(['name', 'description'])
  })

  it('writes the newer format with a kebab-case name and metadata.type, keeping other metadata', () => {
    const text = serializeMemoryFile(
      {
        name: 'Deploy Freeze',
        description: 'No Friday deploys',
        type: 'project',
        body: 'See [[release-train]]\n',
      },
      { metadata: { owner: 'ops' }, originSessionId: 'abc' },
      'nested',
    )
    expect(text).toBe(
      '---\nname: deploy-freeze\ndescription: No Friday deploys\nmetadata:\n  owner: ops\n  type: project\noriginSessionId: abc\n---\n\nSee [[release-train]]\n',
    )
    expect(parseMemoryFile(text)).toMatchObject({ name: 'deploy-freeze', type: 'project', format: 'nested' })
  })

  it('kebab slugs', () => {
    expect(kebabSlug('Déploy: Friday  freeze!')).toBe('deploy-friday-freeze')
    expect(kebabSlug('日本語')).toBe('memory')
  })
})

describe('frontmatterProblem', () => {
  it("names the parser's message and the file's line for a block YAML cannot read, nothing otherwise", () => {
    expect(frontmatterProblem('---\nname: a\n  bad: indent\n: x\n---\nbody\n')).toEqual({
      message: 'Nested mappings are not allowed in compact mappings',
      line: 2,
    })
    // The line the parser stopped at, counted in the file (the fence is line 1).
    const head = 'name: a\ndescription: ok\ntype: user\n'
    expect(frontmatterProblem(`---\n${head}label: x\n  nested: indented\n: n\n---\nbody\n`)).toEqual({
      message: 'Nested mappings are not allowed in compact mappings',
      line: 5,
    })
    expect(frontmatterProblem(`\uFEFF---\r\n${head.replace(/\n/g, '\r\n')}- item\r\n---\r\n`)).toEqual({
      message: 'Implicit keys need to be on a single line',
      line: 5,
    })
    // A quote never closed runs to the block's end: its last line, not the fence after it.
    expect(frontmatterProblem(`---\n${head}label: "open\n---\nbody\n`)).toEqual({
      message: 'Missing closing "quote',
      line: 5,
    })
    // Read by the quoting retry, as Claude Code reads it: no problem.
    expect(frontmatterProblem('---\nname: x\ndescription: Deploy: never on Fridays\n---\n')).toBeUndefined()
    expect(frontmatterProblem('---\nname: ok\ntype: user\n---\n')).toBeUndefined()
    expect(frontmatterProblem('no block at all\n')).toBeUndefined()
  })

  it('a block of aliases that would expand a billion times is a problem to name, not an error to throw', () => {
    const levels = Array.from({ length: 30 }, (_, i) => {
      const prev = i ? `b${i - 1}` : 'a'
      return `b${i}: &b${i}\n  - *${prev}\n  - *${prev}`
    })
    const bomb = `---\nname: Bomb\na: &a [1]\n${levels.join('\n')}\n---\n\nbody\n`
    expect(parseMemoryFile(bomb)).toMatchObject({ name: undefined, body: bomb })
    expect(frontmatterProblem(bomb)).toEqual({ message: expect.stringMatching(/alias/i), line: 2 })
  })

  it('says a frontmatter block over 16 KB is not read, and reads lines built to backtrack without stalling', () => {
    const huge = `---\nname: a\ndescription: "${'"'.repeat(300_000)}\n---\n\nbody\n`
    expect(frontmatterProblem(huge)).toEqual({
      message: 'the frontmatter is 300,023 characters long; at most 16,384 are read',
      line: 2,
    })
    expect(parseMemoryFile(huge).name).toBeUndefined()
    const started = performance.now()
    // Each took seconds to minutes once: many spaces before a stray \r, or before a late '#'.
    for (const line of [`name:${' '.repeat(200_000)}\rx`, `name: a${' '.repeat(200_000)}b#c`])
      parseMemoryFile(`---\n${line}\ndescription: d\n---\n\nbody\n`)
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
