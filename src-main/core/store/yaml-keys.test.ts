import { describe, expect, it } from 'vitest'
import { yamlLibrary } from './frontmatter.js'
import { keepLastOfKey } from './yaml-keys.js'

describe('keepLastOfKey', () => {
  it('keeps the last of a key written twice and every other key as written', () => {
    const doc = yamlLibrary().parseDocument('name: one\ntags: [a]\nname: two\ntags: [b]\n', {
      uniqueKeys: false,
    })
    keepLastOfKey(doc, ['name'])
    expect(doc.toString()).toBe('tags: [ a ]\nname: two\ntags: [ b ]\n')
  })

  it('drops thousands of shadowed lines in one pass (a hostile file of one key written over and over)', () => {
    const n = 100_000
    const doc = yamlLibrary().parseDocument(`${'name: x\n'.repeat(n)}description: d\n`, { uniqueKeys: false })
    const started = performance.now()
    keepLastOfKey(doc, ['name'])
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(doc.toJS()).toEqual({ name: 'x', description: 'd' })
  })
})
