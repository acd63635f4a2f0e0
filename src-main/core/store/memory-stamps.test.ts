import { describe, expect, it } from 'vitest'
import { parseMemoryFile } from './frontmatter.js'
import { stampMemoryText } from './memory-stamps.js'

const NOW = Date.UTC(2026, 11, 4, 12, 0, 0)
const CLIENT_213 = ['node_type', 'originSessionId', 'modified'] as const

describe('stampMemoryText', () => {
  it("stamps the key's own metadata: another key that pointed at it with a YAML alias keeps what it held", () => {
    const text = '---\nname: d\ndescription: D\nmetadata: &m\n  type: project\nsame_as: *m\n---\n\nBody.\n'
    const out = stampMemoryText(text, null, { stamps: CLIENT_213, sessionId: 's-1', now: NOW })
    const data = parseMemoryFile(out).data
    expect(data.same_as).toEqual({ type: 'project' })
    expect(data.metadata).toMatchObject({ type: 'project', node_type: 'memory', originSessionId: 's-1' })
  })

  it('stamps a new memory as 2.1.213+ does: node_type first, the session, the time', () => {
    const text =
      '---\nname: deploy-day\ndescription: We deploy on Fridays\nmetadata:\n  type: project\n---\n\nBody.\n'
    const out = stampMemoryText(text, null, { stamps: CLIENT_213, sessionId: 's-1', now: NOW })
    expect(out).toBe(
      '---\nname: deploy-day\ndescription: We deploy on Fridays\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: s-1\n  modified: 2026-12-04T12:00:00.000Z\n---\n\nBody.\n',
    )
  })

  it('an update bumps modified and keeps the first writer, even when the rewrite dropped it', () => {
    const before =
      '---\nname: a\ndescription: d\nmetadata:\n  node_type: memory\n  type: user\n  originSessionId: first\n  modified: 2026-01-01T00:00:00.000Z\n---\n\nOld.\n'
    const rewrite = '---\nname: a\ndescription: d\nmetadata:\n  type: user\n---\n\nNew.\n'
    const out = parseMemoryFile(
      stampMemoryText(rewrite, before, { stamps: CLIENT_213, sessionId: 'second', now: NOW }),
    )
    expect(out.data.metadata).toEqual({
      node_type: 'memory',
      type: 'user',
      originSessionId: 'first',
      modified: '2026-12-04T12:00:00.000Z',
    })
  })

  it('bumps the modified that is read when a key is written twice', () => {
    const text =
      '---\nname: a\ndescription: d\nmodified: 2019-01-01\nmodified: 2020-01-01\nmetadata:\n  modified: 2019-01-01\n  modified: 2020-01-01\n---\nBody.\n'
    const out = stampMemoryText(text, text, { stamps: [], now: NOW })
    expect(parseMemoryFile(out).data).toMatchObject({
      modified: '2026-12-04T12:00:00.000Z',
      metadata: { modified: '2026-12-04T12:00:00.000Z' },
    })
    expect(out.match(/modified/g)).toHaveLength(2)
  })

  it('bumps a modified the file keeps whatever the client, and touches nothing else', () => {
    const text =
      '---\n# a comment someone wrote\nname: "Quoted  name"\ndescription: d\nmodified: 2020-01-01\ntags: [a, b]\n---\nBody.\n'
    const out = stampMemoryText(text, text, { stamps: [], now: NOW })
    expect(out).toBe(
      '---\n# a comment someone wrote\nname: "Quoted  name"\ndescription: d\nmodified: 2026-12-04T12:00:00.000Z\ntags: [a, b]\n---\nBody.\n',
    )
  })

  it('a CRLF file stays CRLF when its modified is bumped', () => {
    const text = '---\r\nname: a\r\ndescription: d\r\nmodified: 2020-01-01\r\n---\r\nBody.\r\n'
    expect(stampMemoryText(text, text, { stamps: [], now: NOW })).toBe(
      '---\r\nname: a\r\ndescription: d\r\nmodified: 2026-12-04T12:00:00.000Z\r\n---\r\nBody.\r\n',
    )
  })

  it('an older client (no stamps) and a file without modified: written as given', () => {
    const text = '---\nname: A\ndescription: d\ntype: user\n---\n\nBody.\n'
    expect(stampMemoryText(text, null, { stamps: [], sessionId: 's', now: NOW })).toBe(text)
  })

  it('a text without readable frontmatter is written as it is', () => {
    for (const text of ['no frontmatter\n', '---\nname: [unclosed\n---\nbody\n'])
      expect(stampMemoryText(text, null, { stamps: CLIENT_213, sessionId: 's', now: NOW })).toBe(text)
  })
})
