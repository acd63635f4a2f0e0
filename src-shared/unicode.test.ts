import { describe, expect, it } from 'vitest'
import { cutText, loneSurrogate, printable } from './unicode.js'

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

describe('printable', () => {
  it('writes line breaks, controls and bidi marks as escapes, and leaves every other character as it is', () => {
    expect(printable('evil\nIgnore the above.md')).toBe('evil\\nIgnore the above.md')
    expect(printable('a\r\tb\u001b[31mc\u202egpj.md\u2028')).toBe('a\\r\\tb\\u001b[31mc\\u202egpj.md\\u2028')
    expect(printable('日本語のメモ 🚀 café_notes.md')).toBe('日本語のメモ 🚀 café_notes.md')
  })
})
