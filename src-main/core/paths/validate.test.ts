import { describe, expect, it } from 'vitest'
import { checkMemoryPath, validateMemoryPath } from './validate.js'

const home = '/home/alice'
const settings = { expandTilde: true, homeDir: home }
const env = { expandTilde: false, homeDir: home }

describe('validateMemoryPath', () => {
  it.each([
    ['relative path', 'memory/dir', 'absolute'],
    ['dot-relative path', './memory', 'absolute'],
    ['filesystem root', '/', 'root'],
    ['root with trailing slashes', '///', 'UNC'],
    ['too short', '/a', 'too short'],
    ['Windows drive root', 'C:\\', 'root'],
    ['bare drive', 'C:', 'drive'],
    ['UNC backslash', '\\\\server\\share\\mem', 'UNC'],
    ['UNC forward slash', '//server/share/mem', 'UNC'],
    ['NUL byte', '/tmp/mem\0ory', 'NUL'],
    ['empty', '', 'empty'],
    ['blank', '   ', 'empty'],
  ])('rejects %s', (_kind, raw, reason) => {
    const r = checkMemoryPath(raw, settings)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.reason).toContain(reason)
    expect(validateMemoryPath(raw, settings)).toBeUndefined()
  })

  it.each(['~', '~/', '~/.', '~/..', '~/foo/..', '~/../etc'])(
    'rejects the trivial tilde remainder %s',
    (raw) => {
      const r = checkMemoryPath(raw, settings)
      expect(r.ok).toBe(false)
    },
  )

  it('rejects a non-string value from settings', () => {
    expect(checkMemoryPath(42, settings).ok).toBe(false)
  })

  it('expands ~/ for settings values', () => {
    expect(validateMemoryPath('~/notes/memory', settings)).toBe('/home/alice/notes/memory/')
  })

  it('never expands ~ for env values: they must be absolute', () => {
    expect(validateMemoryPath('~/notes', env)).toBeUndefined()
  })

  it('normalizes and ends in exactly one separator', () => {
    expect(validateMemoryPath('/data//mem/./x/../', env)).toBe('/data/mem/')
    expect(validateMemoryPath('/data/mem///', env)).toBe('/data/mem/')
  })

  it('NFC-normalizes the result', () => {
    const nfd = '/data/cafe\u0301'
    expect(validateMemoryPath(nfd, env)).toBe('/data/caf\u00e9/')
  })
})
