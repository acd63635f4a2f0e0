import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memDirWith } from '../../../test/helpers/history.js'
import { reconcileHistory } from './recorder.js'

const HOUR_AGO = Date.now() / 1000 - 3600

/** Rewrites a file keeping its mtime and size: what a stamp cannot tell from no change. */
function rewriteKeepingStamp(path: string, content: string) {
  const { mtime, size } = statSync(path)
  expect(Buffer.byteLength(content)).toBe(size)
  writeFileSync(path, content)
  utimesSync(path, mtime, mtime)
}

describe('reopening a workspace compares by stamp, then by content', () => {
  it('records what changed while closed (new mtime, same size; deleted; new) and nothing else', async () => {
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`m${i}.md`, `memory ${i}\n`]))
    const { memoryDir, history } = memDirWith(files)
    for (const f of Object.keys(files)) utimesSync(join(memoryDir, f), HOUR_AGO, HOUR_AGO)
    expect(await reconcileHistory(history, memoryDir, 'external')).toHaveLength(50)
    expect(await reconcileHistory(history, memoryDir, 'external')).toEqual([])

    writeFileSync(join(memoryDir, 'm3.md'), 'memory 9\n') // same size, mtime now
    rmSync(join(memoryDir, 'm4.md'))
    writeFileSync(join(memoryDir, 'new.md'), 'written while closed\n')
    const changed = await reconcileHistory(history, memoryDir, 'external')
    expect(changed.map((e) => [e.path, e.change])).toEqual([
      ['m3.md', 'modify'],
      ['m4.md', 'delete'],
      ['new.md', 'baseline'], // first seen by a whole-dir comparison
    ])
    expect(await history.blob(changed[0]!.after!)).toBe('memory 9\n')
  })

  it('a file that keeps its mtime and size is not read again (git’s rule), unless it was racily new', async () => {
    const { memoryDir, history } = memDirWith({ 'old.md': 'version A\n', 'fresh.md': 'version A\n' })
    utimesSync(join(memoryDir, 'old.md'), HOUR_AGO, HOUR_AGO)
    // fresh.md was written just now: its stamp cannot be trusted yet, so it is never skipped.
    await reconcileHistory(history, memoryDir, 'external')
    rewriteKeepingStamp(join(memoryDir, 'old.md'), 'version B\n')
    rewriteKeepingStamp(join(memoryDir, 'fresh.md'), 'version B\n')
    const changed = await reconcileHistory(history, memoryDir, 'external')
    expect(changed.map((e) => e.path)).toEqual(['fresh.md'])
  })

  it('a damaged stamp file is no stamp file: every memory is read and compared', async () => {
    const { memoryDir, history } = memDirWith({ 'a.md': 'version A\n' })
    utimesSync(join(memoryDir, 'a.md'), HOUR_AGO, HOUR_AGO)
    await reconcileHistory(history, memoryDir, 'external')
    writeFileSync(join(history.dir, 'observed-stamps.json'), '{"v":"observed-1","names":["a.md"],"stamps":[1')
    rewriteKeepingStamp(join(memoryDir, 'a.md'), 'version B\n')
    const changed = await reconcileHistory(history, memoryDir, 'external')
    expect(changed.map((e) => [e.path, e.change])).toEqual([['a.md', 'modify']])
  })

  it('a stamp whose hash history no longer holds as latest (recorded since by another writer) is read again', async () => {
    const { memoryDir, history } = memDirWith({ 'a.md': 'version A\n' })
    utimesSync(join(memoryDir, 'a.md'), HOUR_AGO, HOUR_AGO)
    await reconcileHistory(history, memoryDir, 'external')
    // Another process recorded a write whose file then went back to the same stamp.
    await history.recordChange({ path: 'a.md', author: 'mcp', before: 'version A\n', after: 'version C\n' })
    const changed = await reconcileHistory(history, memoryDir, 'external')
    expect(changed.map((e) => [e.path, e.change, e.author])).toEqual([['a.md', 'modify', 'external']])
    expect(await history.blob(changed[0]!.after!)).toBe('version A\n')
  })
})

describe('history copies', () => {
  it('a first whole-dir baseline with its fsyncs deferred is complete once whenDurable resolves', async () => {
    const files = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`m${i}.md`, `memory ${i}\n`]))
    const { memoryDir, history } = memDirWith(files)
    const recorded = await reconcileHistory(history, memoryDir, 'external', { deferSync: true })
    await history.whenDurable()
    expect(recorded).toHaveLength(70)
    for (const e of recorded) expect(await history.blob(e.after!)).toBe(files[e.path])
  })

  it('a copy whose content no longer matches its id (cut short by a crash) is refused, not restored', async () => {
    const { memoryDir, history } = memDirWith({ 'a.md': 'the whole memory\n' })
    const [baseline] = await reconcileHistory(history, memoryDir, 'external')
    writeFileSync(join(history.dir, 'objects', baseline!.after!), '')
    await expect(history.blob(baseline!.after!)).rejects.toThrow(/damaged/)
  })
})
