import { describe, expect, it } from 'vitest'
import { djb2Hash, sanitizeAgentTypeForPath, sanitizePath } from './sanitize.js'

describe('sanitizePath', () => {
  it('replaces every non-alphanumeric character with -', () => {
    expect(sanitizePath('/home/a/proj')).toBe('-home-a-proj')
    expect(sanitizePath('C:\\Users\\b\\my_app.v2')).toBe('C--Users-b-my-app-v2')
  })

  it('keeps names up to 200 chars as they are', () => {
    const name = '/' + 'a'.repeat(199)
    expect(sanitizePath(name)).toHaveLength(200)
  })

  it('truncates long names and appends a stable djb2 hash of the full name', () => {
    const name = '/' + 'x'.repeat(300)
    const out = sanitizePath(name)
    const hash = Math.abs(djb2Hash(name)).toString(36)
    expect(out).toBe(`${'-' + 'x'.repeat(199)}-${hash}`)
    expect(sanitizePath(name)).toBe(out)
    expect(sanitizePath('/' + 'x'.repeat(301))).not.toBe(out)
  })

  it('uses the 31-multiplier hash Claude Code uses', () => {
    expect(djb2Hash('')).toBe(0)
    expect(djb2Hash('a')).toBe(97)
    expect(djb2Hash('ab')).toBe(97 * 31 + 98)
  })

  it('sanitizes agent types for paths', () => {
    expect(sanitizeAgentTypeForPath('my-plugin:my-agent')).toBe('my-plugin-my-agent')
  })
})
