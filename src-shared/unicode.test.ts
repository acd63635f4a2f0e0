import { describe, expect, it } from 'vitest'
import { cutText, loneSurrogate } from './unicode.js'

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
