import { describe, expect, it } from 'vitest'
import { memoryNameProblem } from '../../../src-shared/memory-names.js'
import { memoryFileSlug } from './file-slug.js'

describe('the file name a new memory gets from its title', () => {
  it('keeps Latin titles as they always were: snake case (flat) or kebab case (nested)', () => {
    expect(memoryFileSlug('Déploy: Friday  freeze!')).toBe('deploy_friday_freeze')
    expect(memoryFileSlug('Déploy: Friday  freeze!', 'nested')).toBe('deploy-friday-freeze')
    expect(memoryFileSlug('user_role')).toBe('user_role')
  })

  it('gives titles in other scripts files of their own, not one shared fallback', () => {
    expect(memoryFileSlug('日本語のメモ')).toBe('日本語のメモ')
    expect(memoryFileSlug('Заметка о деплое')).toBe('заметка_о_деплое')
    expect(memoryFileSlug('Заметка о деплое', 'nested')).toBe('заметка-о-деплое')
    expect(memoryFileSlug('नियम: परीक्षण पहले')).toBe('नियम_परीक्षण_पहले')
    expect(memoryFileSlug('Заметка о деплое')).not.toBe(memoryFileSlug('Правило о тестах'))
  })

  it('never names a memory after the index or a Windows device, and always gives a name', () => {
    // On APFS and NTFS memory.md is MEMORY.md: a memory titled "Memory" must not replace the index.
    expect(memoryFileSlug('Memory')).toBe('memory_note')
    expect(memoryFileSlug('MEMORY', 'nested')).toBe('memory-note')
    expect(memoryFileSlug('CON')).toBe('con_note')
    expect(memoryFileSlug('🚀🚀')).toBe('note')
    expect(memoryFileSlug('!!!')).toBe('note')
  })

  it('stays within a file name in any script, and every slug passes the one name rule', () => {
    const long = memoryFileSlug('𝔘'.repeat(300) + ' 日本語'.repeat(100))
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(120)
    for (const title of [
      'Memory',
      'CON',
      '日本語のメモ',
      'a'.repeat(300),
      'ع'.repeat(300),
      '  ',
      'x\u202ey',
      'é\u0301',
    ])
      for (const format of ['flat', 'nested'] as const)
        expect(
          memoryNameProblem(`${memoryFileSlug(title, format)}.md`),
          `${title} (${format})`,
        ).toBeUndefined()
  })
})
