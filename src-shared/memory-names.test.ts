import { describe, expect, it } from 'vitest'
import {
  checkMemoryName,
  MAX_NAME_SEGMENT_BYTES,
  memoryNameProblem,
  memoryTitleProblem,
  nameFoldKey,
} from './memory-names.js'

describe('the one memory-name rule', () => {
  it.each([
    'feedback_testing.md',
    'team/deploy-freeze.md',
    'projects/2026/q3 plan.md',
    'café.md',
    '日本語のメモ.md',
    'MEMORY.md',
    'team/MEMORY.md',
    'notes/memory.md',
    'memory_notes.md',
    '__proto__.md',
    'a'.repeat(MAX_NAME_SEGMENT_BYTES - 3) + '.md',
  ])('accepts %s', (name) => {
    expect(memoryNameProblem(name)).toBeUndefined()
    expect(checkMemoryName(name)).toBe(name)
  })

  it.each([
    ['a newline', 'evil\n- [x](../../.ssh/id).md'],
    ['a carriage return', 'a\rb.md'],
    ['a NUL byte', 'a\0.md'],
    ['right-to-left override', 'gpj\u202e.md'],
    ['left-to-right isolate', 'a\u2066b.md'],
    ['a zero-width space', 'a\u200bb.md'],
    ['a BOM', '\ufeffa.md'],
    ['an escape sequence', 'a\u001b[31m.md'],
    ['an absolute path', '/etc/passwd.md'],
    ['a drive letter', 'C:/x.md'],
    ['a parent segment', '../x.md'],
    ['a parent segment inside', 'a/../../x.md'],
    ['an URL-encoded parent', '%2e%2e/x.md'],
    ['a full-width parent', '\uff0e\uff0e/x.md'],
    ['a backslash', 'a\\b.md'],
    ['an empty segment', 'a//b.md'],
    ['a dot segment', './a.md'],
    ['a hidden file', '.secret.md'],
    ['a Windows-forbidden character', 'a:b.md'],
    ['a Windows device name', 'con.md'],
    ['a trailing dot in a folder', 'v1./a.md'],
    ['another extension', 'notes.txt'],
    ['no extension', '__proto__'],
    ['an NFD spelling', 'cafe\u0301.md'],
    ['an empty name', ''],
    ['the index in lower case', 'memory.md'],
    ['the index in another case', 'Memory.md'],
    ['the team index in lower case', 'team/memory.md'],
  ])('refuses %s with INVALID_NAME', (_what, name) => {
    expect(memoryNameProblem(name)?.code).toBe('INVALID_NAME')
    expect(() => checkMemoryName(name)).toThrow(expect.objectContaining({ code: 'INVALID_NAME' }))
  })

  it('refuses a 300-character segment and an over-long path with PATH_TOO_LONG', () => {
    expect(memoryNameProblem('a'.repeat(300) + '.md')?.code).toBe('PATH_TOO_LONG')
    // 150 characters of 2-byte UTF-8 are 300 bytes: the limit counts bytes, as file systems do.
    expect(memoryNameProblem('é'.repeat(150) + '.md')?.code).toBe('PATH_TOO_LONG')
    expect(memoryNameProblem(Array(10).fill('x'.repeat(60)).join('/') + '.md')?.code).toBe('PATH_TOO_LONG')
  })

  it('says why memory.md cannot be a memory: on macOS and Windows it is the index', () => {
    expect(memoryNameProblem('memory.md')?.message).toMatch(/MEMORY\.md only in case.*macOS and Windows/)
  })

  it('names the offending character by its code point, never printing it raw', () => {
    expect(memoryNameProblem('gpj\u202e.md')?.message).toContain('U+202E')
  })

  it('keeps titles to one line of plain text; a description may wrap but not hide characters', () => {
    expect(memoryTitleProblem('name', 'Staging needs VPN')).toBeUndefined()
    expect(memoryTitleProblem('name', 'x\n- [owned](/etc/passwd)')?.code).toBe('INVALID_NAME')
    expect(memoryTitleProblem('name', 'abc\u202edef')?.code).toBe('INVALID_NAME')
    expect(memoryTitleProblem('name', 'n'.repeat(300))?.code).toBe('INVALID_NAME')
    // The limit itself passes, and a character outside the BMP counts once.
    expect(memoryTitleProblem('name', 'n'.repeat(200))).toBeUndefined()
    expect(memoryTitleProblem('name', '🚀'.repeat(120))).toBeUndefined()
    expect(memoryTitleProblem('name', '𠮷'.repeat(201))?.message).toBe(
      'the name is 201 characters long; a name may be at most 200',
    )
    expect(memoryTitleProblem('description', 'one line\nthat wraps')).toBeUndefined()
    expect(memoryTitleProblem('description', 'spoof\u202e')?.code).toBe('INVALID_NAME')
  })

  it('folds names that would be one file on APFS or NTFS', () => {
    expect(nameFoldKey('Deploy.md')).toBe(nameFoldKey('deploy.md'))
    expect(nameFoldKey('cafe\u0301.md')).toBe(nameFoldKey('café.md'))
  })
})
