import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { formatMemoryManifest } from './manifest.js'
import { scanMemoryFiles } from './scan.js'

const mem = (name: string, description: string, type = 'project') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\nbody of ${name}\n`

function touch(path: string, mtimeMs: number) {
  utimesSync(path, mtimeMs / 1000, mtimeMs / 1000)
}

describe('scanMemoryFiles', () => {
  it('scans a 1,000-file dir down to the 200 newest, newest first', async () => {
    const dir = tempDir()
    const base = Date.UTC(2026, 0, 1)
    for (let i = 0; i < 1000; i++) {
      const p = writeFile(join(dir, `m${String(i).padStart(4, '0')}.md`), mem(`m${i}`, `memory number ${i}`))
      touch(p, base + i * 60_000)
    }
    const out = await scanMemoryFiles(dir)
    expect(out).toHaveLength(200)
    expect(out[0]?.filename).toBe('m0999.md')
    expect(out[199]?.filename).toBe('m0800.md')
    for (let i = 1; i < out.length; i++) expect(out[i - 1]!.mtimeMs).toBeGreaterThanOrEqual(out[i]!.mtimeMs)
  })

  it('recurses, excludes MEMORY.md and non-.md files, and reads the header', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'MEMORY.md'), '- [a](a.md) — x\n')
    writeFile(join(dir, 'team', 'MEMORY.md'), '')
    writeFile(join(dir, 'notes.txt'), 'nope')
    writeFile(join(dir, 'a.md'), mem('A', 'first one', 'feedback'))
    writeFile(join(dir, 'team', 'b.md'), mem('B', 'team one', 'reference'))
    const out = await scanMemoryFiles(dir)
    expect(out.map((h) => h.filename).sort()).toEqual(['a.md', 'team/b.md'])
    const a = out.find((h) => h.filename === 'a.md')
    expect(a).toMatchObject({
      name: 'A',
      description: 'first one',
      type: 'feedback',
      filePath: join(dir, 'a.md'),
    })
  })

  it('skips malformed frontmatter without crashing and keeps the file usable', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'bad.md'), '---\nname: [unclosed\ndescription: : :\n  - x: {\n---\nbody\n')
    writeFile(join(dir, 'unknown-type.md'), mem('U', 'odd type', 'diary'))
    writeFile(join(dir, 'no-frontmatter.md'), 'just text\n')
    writeFile(join(dir, 'good.md'), mem('G', 'fine'))
    const out = await scanMemoryFiles(dir)
    expect(out.map((h) => h.filename).sort()).toEqual([
      'bad.md',
      'good.md',
      'no-frontmatter.md',
      'unknown-type.md',
    ])
    expect(out.find((h) => h.filename === 'bad.md')).toMatchObject({ description: null, type: undefined })
    expect(out.find((h) => h.filename === 'unknown-type.md')).toMatchObject({
      type: undefined,
      description: 'odd type',
    })
  })

  it('reads only the first 30 lines of each file', async () => {
    const dir = tempDir()
    const lines = [
      '---',
      'name: long',
      ...Array.from({ length: 40 }, (_, i) => `k${i}: v`),
      'description: too late',
      '---',
    ]
    writeFile(join(dir, 'long.md'), lines.join('\n'))
    const [h] = await scanMemoryFiles(dir)
    expect(h?.description).toBeNull()
  })

  it('returns [] for a missing dir', async () => {
    expect(await scanMemoryFiles(join(tempDir(), 'nope'))).toEqual([])
  })
})

describe('formatMemoryManifest', () => {
  it('formats type, path, ISO mtime and description, omitting what is missing', () => {
    const mtimeMs = Date.UTC(2026, 2, 15, 10, 30)
    expect(
      formatMemoryManifest([
        {
          filename: 'testing.md',
          filePath: '/x',
          mtimeMs,
          type: 'feedback',
          description: 'Integration tests use a real DB',
        },
        { filename: 'plain.md', filePath: '/y', mtimeMs, description: null },
      ]),
    ).toBe(
      '- [feedback] testing.md (2026-03-15T10:30:00.000Z): Integration tests use a real DB\n- plain.md (2026-03-15T10:30:00.000Z)',
    )
  })
})
