import { describe, expect, it } from 'vitest'
import {
  parseMemoryFile,
  parseMemoryHeaderFields,
  parseWithGrayMatter,
  serializeMemoryFile,
  toParsed,
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
]

describe('frontmatter parsing', () => {
  it.each(samples)('the fast path agrees with gray-matter: %j', (text) => {
    expect(parseMemoryFile(text)).toEqual(toParsed(parseWithGrayMatter(text)))
  })

  it.each(samples)('the header-only parse gives the same fields: %j', (text) => {
    const { name, description, type } = parseMemoryFile(text)
    expect(parseMemoryHeaderFields(text)).toEqual({ name, description, type })
  })

  it('round-trips what it serializes', () => {
    for (const description of [
      'plain words',
      'has: colon',
      'has #hash',
      'STAGE=staging',
      "it's fine",
      '"quoted"',
      '- dash first',
    ]) {
      const text = serializeMemoryFile({ name: 'N', description, type: 'project', body: 'b\n' })
      expect(parseMemoryFile(text)).toMatchObject({ name: 'N', description, type: 'project', body: 'b\n' })
    }
  })
})
