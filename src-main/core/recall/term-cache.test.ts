import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { scanMemoryFiles } from '../store/scan.js'
import { rankMemoriesOffline } from './offline-ranker.js'
import { TermCache } from './term-cache.js'
import { termsVersion } from './terms.js'

const memory = (body: string) =>
  `---\nname: Build notes\ndescription: notes the build team keeps\ntype: project\n---\n\n${body}\n`

/** Ranks with a cache loaded fresh from `file`, as a new hook process would, and saves it back. */
async function rankWithCache(dir: string, file: string, query: string): Promise<string[]> {
  const cache = new TermCache(file)
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

describe('recall term cache', () => {
  it('keeps a memory’s terms between runs while its mtime and size stay, and re-reads it when either changes', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'cache', 'recall', 'terms.json')
    const path = writeFile(join(dir, 'notes.md'), memory('Use the changelog template for alpha builds.'))
    utimesSync(path, STAMP, STAMP)
    writeFile(
      join(dir, 'other.md'),
      memory('Nothing about that here at all.').replace('Build notes', 'Other'),
    )

    expect(await rankWithCache(dir, cacheFile, 'changelog template')).toEqual(['notes.md'])
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600)

    // Same stamp, other words: the cached terms answer, so the new word is not found yet.
    swapKeepingStamp(path, memory('Use the rollback playbook  for alpha builds.'))
    expect(await rankWithCache(dir, cacheFile, 'changelog template')).toEqual(['notes.md'])
    expect(await rankWithCache(dir, cacheFile, 'rollback playbook')).toEqual([])

    // A new mtime: read again.
    utimesSync(path, STAMP, STAMP + 5)
    expect(await rankWithCache(dir, cacheFile, 'rollback playbook')).toEqual(['notes.md'])
    expect(await rankWithCache(dir, cacheFile, 'changelog template')).toEqual([])

    // Same mtime, another size: read again.
    writeFileSync(path, memory('Use the canary checklist for alpha builds, always.'))
    utimesSync(path, STAMP + 5, STAMP + 5)
    expect(await rankWithCache(dir, cacheFile, 'canary checklist')).toEqual(['notes.md'])
  })

  it('treats a corrupt cache or one from another vocabulary as empty', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'terms.json')
    utimesSync(writeFile(join(dir, 'notes.md'), memory('Use the changelog template.')), STAMP, STAMP)

    writeFileSync(cacheFile, '{ not json')
    expect(await rankWithCache(dir, cacheFile, 'changelog')).toEqual(['notes.md'])
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).files['notes.md']).toBeDefined()

    // Terms stored under another version would claim the memory says "rollback": ignored.
    const stamp = statSync(join(dir, 'notes.md'))
    writeFileSync(
      cacheFile,
      JSON.stringify({
        v: 'other',
        files: { 'notes.md': [stamp.mtimeMs, stamp.size, [1, '|', '|', '|rollback*1|']] },
      }),
    )
    expect(await rankWithCache(dir, cacheFile, 'rollback')).toEqual([])
    expect(await rankWithCache(dir, cacheFile, 'changelog')).toEqual(['notes.md'])
    // The same entry under this version is believed: the version is what kept it out.
    writeFileSync(
      cacheFile,
      JSON.stringify({
        v: termsVersion(),
        files: { 'notes.md': [stamp.mtimeMs, stamp.size, [1, '|', '|', '|rollback*1|']] },
      }),
    )
    expect(await rankWithCache(dir, cacheFile, 'rollback')).toEqual(['notes.md'])
  })

  it('does not keep a file changed in the last seconds (coarse timestamps could hide a second edit)', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'terms.json')
    const path = writeFile(join(dir, 'notes.md'), memory('Use the changelog template for alpha builds.'))
    expect(await rankWithCache(dir, cacheFile, 'changelog template')).toEqual(['notes.md'])
    // Rewritten at once, same size, stamp put back: a cache would have answered with the old words.
    const { mtime } = statSync(path)
    writeFileSync(path, memory('Use the rollback playbook  for alpha builds.'))
    utimesSync(path, mtime, mtime)
    expect(await rankWithCache(dir, cacheFile, 'rollback playbook')).toEqual(['notes.md'])
  })

  it('drops a deleted memory from the file, and a failed write is not an error', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'terms.json')
    for (const [f, body] of [
      ['a.md', 'Alpha builds use the changelog template.'],
      ['b.md', 'Beta builds use the changelog template.'],
    ] as const)
      utimesSync(writeFile(join(dir, f), memory(body)), STAMP, STAMP)
    await rankWithCache(dir, cacheFile, 'changelog')
    expect(Object.keys(JSON.parse(readFileSync(cacheFile, 'utf8')).files).sort()).toEqual(['a.md', 'b.md'])

    rmSync(join(dir, 'b.md'))
    expect(await rankWithCache(dir, cacheFile, 'changelog')).toEqual(['a.md'])
    expect(Object.keys(JSON.parse(readFileSync(cacheFile, 'utf8')).files)).toEqual(['a.md'])

    // Its folder is a file: the cache cannot be written, recall still answers.
    const blocked = join(writeFile(join(tempDir(), 'plain'), 'x'), 'terms.json')
    expect(await rankWithCache(dir, blocked, 'changelog')).toEqual(['a.md'])
  })
})
