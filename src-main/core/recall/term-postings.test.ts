import { rmSync, statSync, truncateSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HARBOR_HELD_OUT, HARBOR_MEMORIES, HARBOR_TUNE } from '../../../bench/recall-quality/harbor-set.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { scanMemoryFiles } from '../store/scan.js'
import { serializeMemoryFile } from '../store/frontmatter.js'
import { rankMemoriesOffline } from './offline-ranker.js'
import { PostingsFile } from './postings-file.js'
import { TermCache } from './term-cache.js'
import type { TermSource } from './term-source.js'
import { TermIndex } from './term-index.js'
import { termsVersion } from './terms.js'

const DAY = 86_400
const QUERIES = [...HARBOR_TUNE, ...HARBOR_HELD_OUT].map((q) => q.query)

function put(dir: string, file: string, content: string, ageDays: number): void {
  const path = writeFile(join(dir, file), content)
  const t = Date.now() / 1000 - ageDays * DAY
  utimesSync(path, t, t)
}

/**
 * Every query's answer, with files, order and scores, as one list to compare. `leaveOut`: the
 * memories already shown, passed as exclusions, or (`filtered`) taken out of the list first.
 */
async function answers(
  dir: string,
  cache: TermSource | (() => TermSource) | undefined,
  leaveOut?: { files: string[]; how: 'excluded' | 'filtered' },
): Promise<string[]> {
  const scanned = await scanMemoryFiles(dir, { limit: Infinity })
  const shown = new Set(leaveOut?.files.map((f) => join(dir, f)))
  const candidates = leaveOut?.how === 'filtered' ? scanned.filter((h) => !shown.has(h.filePath)) : scanned
  const exclude = leaveOut?.how === 'excluded' ? shown : undefined
  const out: string[] = []
  for (const q of QUERIES) {
    // A function: a new store per query, as each hook process opens its own and saves it back.
    const each = typeof cache === 'function' ? cache() : cache
    const ranked = await rankMemoriesOffline(q, candidates, { cache: each, exclude })
    out.push(`${q} → ${ranked.map((r) => `${r.header.filename}:${r.score.toFixed(6)}`).join(' ')}`)
    if (each !== cache) await each?.save(scanned)
  }
  if (typeof cache !== 'function') await cache?.save(scanned)
  return out
}

describe('term postings (the ranker index a long-running process keeps)', () => {
  it('rank exactly as a cache without them, as memories are edited, added and deleted between prompts', async () => {
    const dir = tempDir()
    HARBOR_MEMORIES.forEach((m, i) => put(dir, m.file, serializeMemoryFile(m), 30 + i))
    // One cache for the whole run, as the app keeps it; the plain ranker reads every file each time.
    const indexed = new TermCache(join(tempDir(), 'terms.json'))
    const plain = async () => answers(dir, undefined)

    const first = await answers(dir, indexed)
    expect(first).toEqual(await plain())
    expect(first.filter((a) => !a.endsWith('→ ')).length).toBeGreaterThan(40)

    // Edits: a memory takes another memory's words; another is emptied; one new, one deleted.
    const [a, b, c, d] = HARBOR_MEMORIES
    put(dir, a!.file, serializeMemoryFile({ ...a!, body: `${b!.body}\n\n${c!.description}` }), 10)
    put(dir, b!.file, serializeMemoryFile({ ...b!, body: 'Nothing here any more.' }), 10)
    put(dir, 'new_memory.md', serializeMemoryFile({ ...c!, name: 'Copy of ' + c!.name }), 10)
    rmSync(join(dir, d!.file))
    const second = await answers(dir, indexed)
    expect(second).toEqual(await plain())
    expect(second).not.toEqual(first)

    // Edited again just now: too new to cache (racily clean), so read from the file every time.
    put(dir, a!.file, serializeMemoryFile({ ...a!, body: d!.body }), 0)
    expect(await answers(dir, indexed)).toEqual(await plain())
  })

  it('leave out the memories a session was already shown exactly as a list without them would', async () => {
    const dir = tempDir()
    HARBOR_MEMORIES.forEach((m, i) => put(dir, m.file, serializeMemoryFile(m), 30 + i))
    const indexed = new TermCache(join(tempDir(), 'terms.json'))
    await answers(dir, indexed) // the app's index is warm
    // The best answers of a few queries, and a name that is no memory at all.
    const shown = ['nonexistent.md', ...HARBOR_MEMORIES.filter((_, i) => i % 9 === 0).map((m) => m.file)]
    const excluded = await answers(dir, indexed, { files: shown, how: 'excluded' })
    expect(excluded).toEqual(await answers(dir, undefined, { files: shown, how: 'filtered' }))
    expect(excluded).not.toEqual(await answers(dir, indexed))
    expect(excluded.join('\n')).not.toContain(HARBOR_MEMORIES[0]!.file)
  })
})

describe('the postings file a hook or `memdir recall` reads', () => {
  it('ranks exactly as the plain ranker, through edits it answers around and the rewrite they lead to', async () => {
    const dir = tempDir()
    HARBOR_MEMORIES.forEach((m, i) => put(dir, m.file, serializeMemoryFile(m), 30 + i))
    const file = join(tempDir(), 'recall.idx')
    const hook = () => new TermIndex(file)
    const plain = async () => answers(dir, undefined)
    const held = () => {
      const f = PostingsFile.load(file, termsVersion())
      f?.close()
      return f ? [...f.filenames()].sort() : []
    }

    expect(await answers(dir, hook)).toEqual(await plain())
    expect(held()).toEqual(HARBOR_MEMORIES.map((m) => m.file).sort())

    // A few edits, a new memory and a deleted one: fewer than the file is rewritten for, so each
    // run reads the changed files itself and the file stays as it was.
    const [a, b, c, d] = HARBOR_MEMORIES
    put(dir, a!.file, serializeMemoryFile({ ...a!, body: `${b!.body}\n\n${c!.description}` }), 10)
    put(dir, b!.file, serializeMemoryFile({ ...b!, body: 'Nothing here any more.' }), 10)
    put(dir, 'new_memory.md', serializeMemoryFile({ ...c!, name: 'Copy of ' + c!.name }), 10)
    rmSync(join(dir, d!.file))
    const before = held()
    const second = await answers(dir, hook)
    expect(second).toEqual(await plain())
    expect(held()).toEqual(before)

    // Many more edits than that: the first run writes the file again, with every memory as it is now.
    HARBOR_MEMORIES.slice(4, 40).forEach((m, i) =>
      put(
        dir,
        m.file,
        serializeMemoryFile({ ...m, body: `${m.body}\n\n${HARBOR_MEMORIES[i + 50]!.body}` }),
        5,
      ),
    )
    const third = await answers(dir, hook)
    expect(third).toEqual(await plain())
    expect(third).not.toEqual(second)
    expect(held()).toContain('new_memory.md')
    expect(held()).not.toContain(d!.file)

    // Edited just now: too new to keep (racily clean), read from the file every time.
    put(dir, a!.file, serializeMemoryFile({ ...a!, body: d!.body }), 0)
    expect(await answers(dir, hook)).toEqual(await plain())

    // Cut short (a full disk, a copy interrupted): not believed, written again.
    truncateSync(file, Math.floor(statSync(file).size * 0.6))
    expect(await answers(dir, hook)).toEqual(await plain())
    expect(held()).toContain('new_memory.md')
  })

  it('leaves out the memories a session was already shown exactly as a list without them would', async () => {
    const dir = tempDir()
    HARBOR_MEMORIES.forEach((m, i) => put(dir, m.file, serializeMemoryFile(m), 30 + i))
    const file = join(tempDir(), 'recall.idx')
    await answers(dir, () => new TermIndex(file))
    const shown = ['nonexistent.md', ...HARBOR_MEMORIES.filter((_, i) => i % 9 === 0).map((m) => m.file)]
    expect(await answers(dir, () => new TermIndex(file), { files: shown, how: 'excluded' })).toEqual(
      await answers(dir, undefined, { files: shown, how: 'filtered' }),
    )
  })
})
