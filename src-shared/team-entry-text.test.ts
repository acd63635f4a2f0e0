import { describe, expect, it } from 'vitest'
import { memoryNameProblem } from './memory-names.js'
import { teamEntryTextProblem } from './team-entry-text.js'

describe('the one rule for what a team entry holds', () => {
  it('takes any text: accents, emoji (a surrogate pair), CRLF, a BOM', () => {
    for (const text of ['', 'café\r\n', 'deploy 🚀 now', '\ufeffstarts with a BOM', 'x'.repeat(10_000)])
      expect(teamEntryTextProblem(text)).toBeUndefined()
  })

  it('refuses a NUL, saying on which line', () => {
    expect(teamEntryTextProblem('one\ntwo\u0000three')).toBe(
      'holds a NUL character (line 2): a memory is text',
    )
  })

  it('refuses a lone surrogate, high or low, naming it', () => {
    expect(teamEntryTextProblem('a\ud800b')).toMatch(/lone surrogate, U\+D800/)
    expect(teamEntryTextProblem('a\udc01')).toMatch(/lone surrogate, U\+DC01/)
    expect(teamEntryTextProblem('🚀'.slice(0, 1))).toMatch(/lone surrogate/)
  })

  it('holds for keys too: a name with a lone surrogate is no file name', () => {
    expect(memoryNameProblem('a\ud800.md')?.code).toBe('INVALID_NAME')
    expect(memoryNameProblem('🚀.md')).toBeUndefined()
  })
})
