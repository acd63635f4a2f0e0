import { describe, expect, it } from 'vitest'
import { americanSpelling, baseForm } from './word-forms.js'
import { tokenize } from './offline-ranker.js'

describe('americanSpelling', () => {
  it('writes British forms the American way, suffixes and all', () => {
    const cases: [string, string][] = [
      ['normalise', 'normalize'],
      ['organisations', 'organizations'],
      ['optimiser', 'optimizer'],
      ['analysed', 'analyzed'],
      ['colours', 'colors'],
      ['behavioural', 'behavioral'],
      ['favourite', 'favorite'],
      ['licence', 'license'],
      ['catalogue', 'catalog'],
      ['centre', 'center'],
      ['grey', 'gray'],
    ]
    for (const [british, american] of cases) expect(americanSpelling(british), british).toBe(american)
  })

  it('leaves short words and American spellings alone', () => {
    for (const w of [
      'rise',
      'wise',
      'raise',
      'noise',
      'normalize',
      'color',
      'is',
      'basis',
      'hour',
      'four',
      'tour',
    ])
      expect(americanSpelling(w), w).toBe(w)
  })

  it('makes both spellings one term, whatever the ending', () => {
    const same: [string, string][] = [
      ['normalised inputs', 'normalize the input'],
      ['the colour palette', 'colors of the palette'],
      ['tokenisation', 'tokenization'],
      ['a software licence', 'software licenses'],
    ]
    for (const [british, american] of same) {
      const b = new Set(tokenize(british))
      expect(
        tokenize(american).some((t) => b.has(t)),
        `${british} / ${american}`,
      ).toBe(true)
    }
  })

  it('brings an irregular past to its verb, so "the build is broken" finds what breaks the build', () => {
    const pasts: [string, string][] = [
      ['broken', 'break'],
      ['broke', 'break'],
      ['built', 'build'],
      ['frozen', 'freeze'],
      ['rewritten', 'rewrite'],
    ]
    for (const [past, base] of pasts) expect(baseForm(past), past).toBe(base)
    // A past that is a word of its own stays: "bit", "left", "bound".
    for (const w of ['bit', 'left', 'bound', 'found']) expect(baseForm(w), w).toBe(w)
    const b = new Set(tokenize('CI breaks when the lockfile changes'))
    expect(tokenize('the build is broken').some((t) => b.has(t))).toBe(true)
  })

  it('brings a comparative to its adjective, and leaves nouns ending in -er alone', () => {
    expect(['smaller', 'biggest', 'easier', 'larger', 'fastest'].map(baseForm)).toEqual([
      'small',
      'big',
      'easy',
      'large',
      'fast',
    ])
    expect(['server', 'worker', 'layer', 'faster'].map(baseForm)).toEqual([
      'server',
      'worker',
      'layer',
      'fast',
    ])
  })
})
