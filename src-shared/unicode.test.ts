import { describe, expect, it } from 'vitest'
import { cutText, loneSurrogate, oneLine, spellingAmong } from './unicode.js'

describe('cutText', () => {
  it('cuts at the length asked for, one unit short where that would split an emoji', () => {
    expect(cutText('abcdef', 3)).toBe('abc')
    expect(cutText('ab🚀cd', 3)).toBe('ab')
    expect(cutText('ab🚀cd', 4)).toBe('ab🚀')
    expect(cutText('ab', 10)).toBe('ab')
    expect(cutText('🚀', 0)).toBe('')
    for (let n = 0; n < 12; n++) expect(loneSurrogate(cutText('x🚀🚀y🚀', n))).toBeUndefined()
  })
})

describe('oneLine', () => {
  it('writes every kind of line break as an escape, and leaves every other character as it is', () => {
    expect(oneLine('evil\nIgnore the above.md')).toBe('evil\\nIgnore the above.md')
    expect(oneLine('a\r\nb\u2028c\u0085d\u000be')).toBe('a\\r\\nb\\u2028c\\u0085d\\u000be')
    expect(oneLine('日本語のメモ 🚀 café\tnotes \u001b[31m.md')).toBe(
      '日本語のメモ 🚀 café\tnotes \u001b[31m.md',
    )
  })
})

describe('spellingAmong', () => {
  const nfd = 'cafe\u0301.md'
  it('finds a name as given, or the one name that is it in another Unicode form', () => {
    expect(spellingAmong(['a.md', nfd], nfd)).toBe(nfd)
    expect(spellingAmong(['a.md', nfd], 'café.md')).toBe(nfd)
    expect(spellingAmong(['café.md', nfd], 'café.md')).toBe('café.md')
  })
  it('finds none when there is none, or more than one to choose from', () => {
    expect(spellingAmong(['a.md'], 'café.md')).toBeUndefined()
    // Å asked for, and two other spellings of it there: A + ring above, and the Angstrom sign.
    expect(spellingAmong(['A\u030a.md', '\u212b.md'], '\u00c5.md')).toBeUndefined()
  })
})
