import { mkdirSync, symlinkSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { formatMemoryManifest } from './manifest.js'
import { newestFirst, readTextFiles, scanMemoryFiles } from './scan.js'
import { listMemoryFilesSync } from './list-memory-files.js'
import { scanMemoryFilesSync, shardOf } from './scan-sync.js'
import { inlineScanner, threadedScanner } from './scan-worker-client.js'

const mem = (name: string, description: string, type = 'project') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\nbody of ${name}\n`

function touch(path: string, mtimeMs: number) {
  utimesSync(path, mtimeMs / 1000, mtimeMs / 1000)
}

describe('scanMemoryFiles', () => {
  it('gives the same newest headers on the worker threads as on the calling thread, small or large', async () => {
    const base = Date.UTC(2026, 0, 1)
    for (const n of [150, 450]) {
      const dir = tempDir()
      for (let i = 0; i < n; i++) {
        const p = writeFile(
          join(dir, i % 3 ? `m${i}.md` : join('team', `t${i}.md`)),
          mem(`m${i}`, `memory ${i}`),
        )
        touch(p, base + ((i * 7919) % n) * 60_000)
      }
      writeFile(join(dir, 'broken.md'), '---\nname: [unclosed\n---\nbody\n')
      touch(join(dir, 'broken.md'), base + n * 60_000)
      const names = (hs: { filename: string; name?: string }[]) => hs.map((h) => `${h.filename}:${h.name}`)
      const inline = await scanMemoryFiles(dir, { scanner: inlineScanner })
      const threaded = await scanMemoryFiles(dir, { scanner: threadedScanner() })
      expect(threaded).toHaveLength(Math.min(200, n + 1))
      expect(names(threaded)).toEqual(names(inline))
      expect(threaded[0]!.filename).toBe('broken.md')
    }
  })

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

  it('beyond the limit keeps exactly the newest a full read keeps, skipping what cannot be read', async () => {
    const dir = tempDir()
    const base = Date.UTC(2026, 0, 1)
    for (let i = 0; i < 260; i++) {
      const p = writeFile(join(dir, i % 3 ? 'team' : '', `m${i}.md`), mem(`m${i}`, `memory ${i}`))
      touch(p, base + (i % 50) * 60_000) // many equal mtimes: ties break by file name
    }
    // Newest of all, yet not memories: a directory named like one, and a dangling symlink.
    mkdirSync(join(dir, 'folder.md'))
    touch(join(dir, 'folder.md'), base + 3_600_000)
    symlinkSync(join(dir, 'gone.md'), join(dir, 'ghost.md'))
    const everything = await scanMemoryFiles(dir, { limit: Infinity })
    expect(everything).toHaveLength(260)
    const kept = await scanMemoryFiles(dir)
    expect(kept).toEqual(everything.slice(0, 200))
  })

  it('lists through symlinked folders once, even when links form a cycle', async () => {
    const dir = tempDir()
    const elsewhere = tempDir()
    writeFile(join(elsewhere, 'shared.md'), mem('S', 'linked in'))
    writeFile(join(dir, 'own.md'), mem('O', 'own'))
    symlinkSync(elsewhere, join(dir, 'linked'))
    symlinkSync(dir, join(elsewhere, 'back')) // elsewhere/back -> dir: a cycle
    expect(listMemoryFilesSync(dir).sort()).toEqual(['linked/shared.md', 'own.md'])
    expect((await scanMemoryFiles(dir)).map((h) => h.filename).sort()).toEqual(['linked/shared.md', 'own.md'])
  })
})

describe('sharded scan', () => {
  it('shards split the files by name, and merged they are the unsharded scan', () => {
    const dir = tempDir()
    for (let i = 0; i < 120; i++)
      touch(writeFile(join(dir, `f${i}.md`), mem(`f${i}`, `d${i}`)), Date.UTC(2026, 0, 1) + i)
    for (const count of [2, 3]) {
      const parts = Array.from({ length: count }, (_, index) =>
        scanMemoryFilesSync(dir, 50, { index, count }),
      )
      for (const p of parts) for (const h of p) expect(shardOf(h.filename, count)).toBe(parts.indexOf(p))
      expect(parts.flat().sort(newestFirst).slice(0, 50)).toEqual(scanMemoryFilesSync(dir, 50))
    }
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

describe('readTextFiles', () => {
  it('reads whole files in order and says which are too large, not files, or unreadable', async () => {
    const dir = tempDir()
    const small = writeFile(join(dir, 'small.md'), 'héllo\n')
    const big = writeFile(join(dir, 'big.md'), 'x'.repeat(101))
    mkdirSync(join(dir, 'sub'))
    expect(await readTextFiles([small, big, join(dir, 'sub'), join(dir, 'gone.md')], 100)).toEqual([
      { kind: 'text', text: 'héllo\n' },
      { kind: 'too_large', size: 101 },
      { kind: 'not_file' },
      { kind: 'error', message: expect.stringContaining('ENOENT') },
    ])
  })

  it('reads many files in slices across the threads, each answer in its file’s place', async () => {
    const dir = tempDir()
    const paths = Array.from({ length: 1100 }, (_, i) => writeFile(join(dir, `m${i}.md`), `memory ${i}\n`))
    const got = await readTextFiles(paths, 100, threadedScanner())
    expect(got).toEqual(paths.map((_, i) => ({ kind: 'text', text: `memory ${i}\n` })))
  })
})
