import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { HeaderCache } from './header-cache.js'
import { scanMemoryFiles } from './scan.js'
import { inlineScanner, threadedScanner } from './scan-worker-client.js'

const memory = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\nBody.\n`

const STAMP = 1_767_225_600 // whole seconds: set back exactly, where a Date would round

/** A scan as a new CLI process runs it: a fresh cache object over the same file. */
async function scan(dir: string, cacheFile: string, limit?: number, scanner = inlineScanner) {
  const headers = await scanMemoryFiles(dir, {
    limit,
    scanner,
    headerCache: new HeaderCache(cacheFile, { blocking: scanner.kind === 'inline' }),
  })
  return headers.map((h) => `${h.filename}: ${h.description}`)
}

describe('header cache (CLI and hooks)', () => {
  it('reads a file again only when its mtime or size changed', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'cache', 'headers.json')
    const path = writeFile(join(dir, 'deploy.md'), memory('Deploy', 'how we ship v1'))
    utimesSync(path, STAMP, STAMP)
    expect(await scan(dir, cacheFile)).toEqual(['deploy.md: how we ship v1'])
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600)

    // Same length, same mtime: the cache answers (which is how a test can see it is used).
    writeFileSync(path, memory('Deploy', 'how we ship v2'))
    utimesSync(path, STAMP, STAMP)
    expect(await scan(dir, cacheFile)).toEqual(['deploy.md: how we ship v1'])

    utimesSync(path, STAMP + 1, STAMP + 1)
    expect(await scan(dir, cacheFile)).toEqual(['deploy.md: how we ship v2'])

    writeFileSync(path, memory('Deploy', 'how we ship v3, now longer'))
    utimesSync(path, STAMP + 1, STAMP + 1)
    expect(await scan(dir, cacheFile)).toEqual(['deploy.md: how we ship v3, now longer'])
  })

  it('gives what a scan without it gives, new and deleted files included, over the limit too', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'headers.json')
    for (let i = 0; i < 6; i++) {
      const p = writeFile(join(dir, `m${i}.md`), memory(`M${i}`, `memory ${i}`))
      utimesSync(p, STAMP + i, STAMP + i)
    }
    const plain = async (limit?: number) =>
      (await scanMemoryFiles(dir, { limit })).map((h) => `${h.filename}: ${h.description}`)
    expect(await scan(dir, cacheFile)).toEqual(await plain())
    expect(await scan(dir, cacheFile, 3)).toEqual(await plain(3))

    rmSync(join(dir, 'm5.md'))
    utimesSync(writeFile(join(dir, 'team', 'new.md'), memory('New', 'just written')), STAMP + 9, STAMP + 9)
    expect(await scan(dir, cacheFile)).toEqual(await plain())
    expect(await scan(dir, cacheFile, 3)).toEqual(await plain(3))
    // What the file keeps: every file the last scan listed, read or not; the deleted one gone.
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).names.sort()).toEqual([
      'm0.md',
      'm1.md',
      'm2.md',
      'm3.md',
      'm4.md',
      'team/new.md',
    ])
  })

  it('keeps the headers a scan of all read through a scan of the newest few (no re-reading every file)', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'headers.json')
    const paths = [0, 1, 2, 3].map((i) => {
      const p = writeFile(join(dir, `m${i}.md`), memory(`M${i}`, `memory ${i}`))
      utimesSync(p, STAMP + i, STAMP + i)
      return p
    })
    await scan(dir, cacheFile) // all, as a prompt hook scans
    await scan(dir, cacheFile, 2) // the newest 2, as `memdir list` does with its 200
    // The oldest, rewritten with its stamp put back: only a kept header still says "memory 0".
    writeFileSync(paths[0]!, memory('M0', 'memory X'))
    utimesSync(paths[0]!, STAMP, STAMP)
    expect(await scan(dir, cacheFile)).toContain('m0.md: memory 0')
  })

  it('does not keep a header of a file changed in the last seconds', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'headers.json')
    const path = writeFile(join(dir, 'deploy.md'), memory('Deploy', 'how we ship v1'))
    expect(await scan(dir, cacheFile)).toEqual(['deploy.md: how we ship v1'])
    const { mtime } = statSync(path)
    writeFileSync(path, memory('Deploy', 'how we ship v2'))
    utimesSync(path, mtime, mtime)
    expect(await scan(dir, cacheFile)).toEqual(['deploy.md: how we ship v2'])
  })

  it('a broken cache file is an empty cache; a cache given is used whatever the scanner', async () => {
    const dir = tempDir()
    const cacheFile = writeFile(join(tempDir(), 'headers.json'), '{"v": 1, "files": [')
    writeFile(join(dir, 'a.md'), memory('A', 'first'))
    expect(await scan(dir, cacheFile)).toEqual(['a.md: first'])

    // With the threaded scanner too: the cache is read and rewritten, never silently ignored.
    utimesSync(join(dir, 'a.md'), STAMP, STAMP) // not changed in the last seconds: cacheable
    const other = writeFile(join(tempDir(), 'headers.json'), 'not json')
    expect(await scan(dir, other, undefined, threadedScanner())).toEqual(['a.md: first'])
    expect(readFileSync(other, 'utf8')).toContain('a.md')
  })

  it('reads the dirs again only when their mtimes say a file was added or removed', async () => {
    const dir = tempDir()
    const cacheFile = join(tempDir(), 'headers.json')
    const team = join(dir, 'team')
    utimesSync(writeFile(join(dir, 'a.md'), memory('A', 'first')), STAMP, STAMP)
    utimesSync(writeFile(join(team, 'b.md'), memory('B', 'second')), STAMP, STAMP)
    const settle = () => [dir, team].forEach((d) => utimesSync(d, STAMP, STAMP))
    settle()
    expect(await scan(dir, cacheFile)).toEqual(['a.md: first', 'team/b.md: second'])

    // Added with the dir's mtime put back: the kept listing answers (which is how a test sees it used).
    utimesSync(writeFile(join(dir, 'c.md'), memory('C', 'third')), STAMP + 1, STAMP + 1)
    settle()
    expect(await scan(dir, cacheFile)).toEqual(['a.md: first', 'team/b.md: second'])

    // As a file system leaves it: each change moves its dir's mtime, and the dirs are read again.
    utimesSync(dir, STAMP + 2, STAMP + 2)
    expect(await scan(dir, cacheFile)).toEqual(['c.md: third', 'a.md: first', 'team/b.md: second'])
    rmSync(join(team, 'b.md'))
    utimesSync(team, STAMP + 3, STAMP + 3)
    expect(await scan(dir, cacheFile)).toEqual(['c.md: third', 'a.md: first'])
    const d = join(team, 'deep')
    utimesSync(writeFile(join(d, 'e.md'), memory('E', 'nested')), STAMP + 4, STAMP + 4)
    utimesSync(d, STAMP + 4, STAMP + 4)
    utimesSync(team, STAMP + 4, STAMP + 4)
    expect(await scan(dir, cacheFile)).toEqual(['team/deep/e.md: nested', 'c.md: third', 'a.md: first'])

    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).extra.dirs).toHaveLength(3)

    // A dir changed in the last seconds could change again within its mtime's grain: not kept.
    writeFile(join(dir, 'f.md'), memory('F', 'just now'))
    expect(await scan(dir, cacheFile)).toContain('f.md: just now')
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).extra).toBeUndefined()
  })

  it('takes from a kept listing only names a walk of the dir could give (a cache file naming ../ is not believed)', async () => {
    const root = tempDir()
    const dir = join(root, 'memory')
    const cacheFile = join(tempDir(), 'headers.json')
    utimesSync(writeFile(join(dir, 'a.md'), memory('A', 'inside')), STAMP, STAMP)
    utimesSync(writeFile(join(root, 'outside.md'), memory('Out', 'not a memory of this dir')), STAMP, STAMP)
    utimesSync(dir, STAMP, STAMP)
    expect(await scan(dir, cacheFile)).toEqual(['a.md: inside'])
    const kept = JSON.parse(readFileSync(cacheFile, 'utf8'))
    for (const forged of ['../outside.md', `${root}/outside.md`, './a.md', 'x//a.md']) {
      writeFileSync(cacheFile, JSON.stringify({ ...kept, extra: { ...kept.extra, files: ['a.md', forged] } }))
      expect(await scan(dir, cacheFile)).toEqual(['a.md: inside'])
    }
    // A well-formed kept listing is believed (so the forged ones above were refused, not re-listed by chance).
    writeFileSync(join(dir, 'b.md'), memory('B', 'added with the dir mtime put back'))
    utimesSync(join(dir, 'b.md'), STAMP, STAMP)
    utimesSync(dir, STAMP, STAMP)
    writeFileSync(cacheFile, JSON.stringify(kept))
    expect(await scan(dir, cacheFile)).toEqual(['a.md: inside'])
  })
})
