import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { scanMemoryFiles } from '../store/scan.js'
import { rankMemoriesOffline } from './offline-ranker.js'
import { type IndexedDoc, PostingsFile } from './postings-file.js'
import { TermCache } from './term-cache.js'
import type { TermSource } from './term-source.js'
import { TermIndex } from './term-index.js'
import { termsVersion } from './terms.js'

const memory = (body: string) =>
  `---\nname: Build notes\ndescription: notes the build team keeps\ntype: project\n---\n\n${body}\n`

/**
 * Each kind of term store, with how a test reads and forges its file: the app's cache (loaded at
 * launch, then kept in memory) and the postings file a hook or `memdir recall` reads.
 */
const SOURCES = [
  {
    kind: 'app term cache (JSON)',
    open: (file: string): TermSource => new TermCache(file),
    names: (file: string): string[] => JSON.parse(readFileSync(file, 'utf8')).names,
    forge: (file: string, version: string, doc: IndexedDoc) =>
      writeFileSync(
        file,
        JSON.stringify({
          v: version,
          names: [doc.filename],
          stamps: [doc.mtimeMs, doc.size],
          values: [doc.terms],
        }),
      ),
  },
  {
    kind: 'hook postings file',
    open: (file: string): TermSource => new TermIndex(file),
    names: (file: string): string[] => {
      const f = PostingsFile.load(file, termsVersion())
      f?.close()
      return [...(f?.filenames() ?? [])]
    },
    forge: (file: string, version: string, doc: IndexedDoc) => PostingsFile.write(file, version, [doc], []),
  },
] as const

type Source = (typeof SOURCES)[number]

/** Ranks with a store loaded fresh from `file`, as a new process would, and saves it back. */
async function rankWithCache(source: Source, dir: string, file: string, query: string): Promise<string[]> {
  const cache = source.open(file)
  const scanned = await scanMemoryFiles(dir)
  const ranked = await rankMemoriesOffline(query, scanned, { cache })
  await cache.save(scanned)
  return ranked.map((r) => r.header.filename)
}

const STAMP = 1_767_225_600 // whole seconds: set back exactly, where a Date would round

/** Rewrites a file with same-length content and puts its mtime back: only the cache can tell. */
function swapKeepingStamp(path: string, content: string): void {
  expect(Buffer.byteLength(content)).toBe(statSync(path).size)
  writeFileSync(path, content)
  utimesSync(path, STAMP, STAMP)
}

describe.each(SOURCES)('recall terms kept between runs: $kind', (source) => {
  it('keeps a memory’s terms between runs while its mtime and size stay, and re-reads it when either changes', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'cache', 'recall', 'terms.json')
    const path = writeFile(join(dir, 'notes.md'), memory('Use the changelog template for alpha builds.'))
    utimesSync(path, STAMP, STAMP)
    writeFile(
      join(dir, 'other.md'),
      memory('Nothing about that here at all.').replace('Build notes', 'Other'),
    )

    expect(await rankWithCache(source, dir, cacheFile, 'changelog template')).toEqual(['notes.md'])
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600)

    // Same stamp, other words: the cached terms answer, so the new word is not found yet.
    swapKeepingStamp(path, memory('Use the rollback playbook  for alpha builds.'))
    expect(await rankWithCache(source, dir, cacheFile, 'changelog template')).toEqual(['notes.md'])
    expect(await rankWithCache(source, dir, cacheFile, 'rollback playbook')).toEqual([])

    // A new mtime: read again.
    utimesSync(path, STAMP, STAMP + 5)
    expect(await rankWithCache(source, dir, cacheFile, 'rollback playbook')).toEqual(['notes.md'])
    expect(await rankWithCache(source, dir, cacheFile, 'changelog template')).toEqual([])

    // Same mtime, another size: read again.
    writeFileSync(path, memory('Use the canary checklist for alpha builds, always.'))
    utimesSync(path, STAMP + 5, STAMP + 5)
    expect(await rankWithCache(source, dir, cacheFile, 'canary checklist')).toEqual(['notes.md'])
  })

  it('treats a corrupt cache or one from another vocabulary as empty', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'terms.json')
    utimesSync(writeFile(join(dir, 'notes.md'), memory('Use the changelog template.')), STAMP, STAMP)

    writeFileSync(cacheFile, '{ not json')
    expect(await rankWithCache(source, dir, cacheFile, 'changelog')).toEqual(['notes.md'])
    expect(source.names(cacheFile)).toEqual(['notes.md'])

    // Terms stored under another version would claim the memory says "rollback": ignored.
    const stamp = statSync(join(dir, 'notes.md'))
    const forged: IndexedDoc = {
      filename: 'notes.md',
      mtimeMs: stamp.mtimeMs,
      size: stamp.size,
      terms: [1, '|', '|', '|rollback*1|'],
    }
    await source.forge(cacheFile, 'other', forged)
    expect(await rankWithCache(source, dir, cacheFile, 'rollback')).toEqual([])
    expect(await rankWithCache(source, dir, cacheFile, 'changelog')).toEqual(['notes.md'])
    // The same entry under this version is believed: the version is what kept it out.
    await source.forge(cacheFile, termsVersion(), forged)
    expect(await rankWithCache(source, dir, cacheFile, 'rollback')).toEqual(['notes.md'])
  })

  it('does not keep a file changed in the last seconds (coarse timestamps could hide a second edit)', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'terms.json')
    const path = writeFile(join(dir, 'notes.md'), memory('Use the changelog template for alpha builds.'))
    expect(await rankWithCache(source, dir, cacheFile, 'changelog template')).toEqual(['notes.md'])
    // Rewritten at once, same size, stamp put back: a cache would have answered with the old words.
    const { mtime } = statSync(path)
    writeFileSync(path, memory('Use the rollback playbook  for alpha builds.'))
    utimesSync(path, mtime, mtime)
    expect(await rankWithCache(source, dir, cacheFile, 'rollback playbook')).toEqual(['notes.md'])
  })

  it('answers without a deleted memory, and a failed write is not an error', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'terms.json')
    for (const [f, body] of [
      ['a.md', 'Alpha builds use the changelog template.'],
      ['b.md', 'Beta builds use the changelog template.'],
    ] as const)
      utimesSync(writeFile(join(dir, f), memory(body)), STAMP, STAMP)
    await rankWithCache(source, dir, cacheFile, 'changelog')
    expect(source.names(cacheFile).sort()).toEqual(['a.md', 'b.md'])

    rmSync(join(dir, 'b.md'))
    expect(await rankWithCache(source, dir, cacheFile, 'changelog')).toEqual(['a.md'])

    // Its folder is a file: the cache cannot be written, recall still answers.
    const blocked = join(writeFile(join(tempDir(), 'plain'), 'x'), 'terms.json')
    expect(await rankWithCache(source, dir, blocked, 'changelog')).toEqual(['a.md'])
  })
})

describe('the app term cache file', () => {
  it('keeps only the memories of the last scan', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'terms.json')
    for (const f of ['a.md', 'b.md'])
      utimesSync(writeFile(join(dir, f), memory('Changelog template.')), STAMP, STAMP)
    await rankWithCache(SOURCES[0], dir, cacheFile, 'changelog')
    rmSync(join(dir, 'b.md'))
    await rankWithCache(SOURCES[0], dir, cacheFile, 'changelog')
    expect(SOURCES[0].names(cacheFile)).toEqual(['a.md'])
  })
})
