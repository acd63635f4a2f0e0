import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { createMemory, readMemory, updateMemory } from './memory-files.js'
import { scanMemoryFiles } from './scan.js'
import { readIndexText } from './index-file.js'
import { decodeText } from './text-encoding.js'

/** What Windows PowerShell 5's `>` writes: UTF-16LE with its byte order mark. */
const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])

describe('files saved as UTF-16 (read as Claude Code 2.1.332 reads them: test/fixtures/memory-md/utf16.json)', () => {
  it('follows the real client: the newest recorded version sends a UTF-16 index as text, and leaves it as it is', () => {
    const recorded = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../../test/fixtures/memory-md/utf16.json'), 'utf8'),
    ) as Record<string, { lineSentAsText: boolean; indexUnchanged: boolean }>
    const newest = Object.keys(recorded)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .at(-1)!
    expect(recorded[newest]).toMatchObject({ lineSentAsText: true, indexUnchanged: true })
  })

  it('a UTF-16 MEMORY.md is read as text, and a new pointer keeps it UTF-16 with its lines and line breaks', async () => {
    const dir = tempDir()
    const index = join(dir, 'MEMORY.md')
    writeFileSync(index, utf16('- [Déploiement](deploy.md) — how we deploy, le vendredi\r\n'))
    expect(await readIndexText(index)).toBe(
      '\uFEFF- [Déploiement](deploy.md) — how we deploy, le vendredi\r\n',
    )
    await createMemory(dir, { name: 'Testing', description: 'real db', type: 'feedback', body: 'b\n' })
    const bytes = readFileSync(index)
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe])
    expect(decodeText(bytes)).toBe(
      '\uFEFF- [Déploiement](deploy.md) — how we deploy, le vendredi\r\n- [Testing](testing.md) — real db\r\n',
    )
  })

  it('a UTF-16 memory is listed and opened with its fields, and saved back as UTF-16', async () => {
    const dir = tempDir()
    const file = join(dir, 'deploy.md')
    writeFileSync(
      file,
      utf16(
        '---\r\nname: Deploy\r\ndescription: Fridays only\r\ntype: project\r\n---\r\n\r\nUse make ship.\r\n',
      ),
    )
    const [header] = await scanMemoryFiles(dir)
    expect(header).toMatchObject({
      filename: 'deploy.md',
      name: 'Deploy',
      description: 'Fridays only',
      type: 'project',
    })
    const rec = await readMemory(dir, 'deploy.md')
    expect(rec).toMatchObject({ name: 'Deploy', description: 'Fridays only', type: 'project' })
    await updateMemory(
      dir,
      'deploy.md',
      { name: 'Deploy', description: 'Thursdays too', type: 'project', body: rec.body },
      rec.hash,
    )
    const bytes = readFileSync(file)
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe])
    expect(decodeText(bytes)).toContain('description: Thursdays too\r\n')
    expect((await readMemory(dir, 'deploy.md')).body).toBe('Use make ship.\r\n')
  })

  it('an odd byte at the end of a UTF-16 text is left out, and UTF-8 (with or without its mark) reads as before', () => {
    expect(decodeText(Buffer.concat([utf16('ab'), Buffer.from([0x63])]))).toBe('\uFEFFab')
    expect(decodeText(Buffer.from('\uFEFFdé', 'utf8'))).toBe('\uFEFFdé')
    expect(decodeText(Buffer.from('dé', 'utf8'))).toBe('dé')
  })
})
