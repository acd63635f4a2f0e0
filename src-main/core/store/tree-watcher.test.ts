import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { watchDir, type DirWatch } from './dir-watch.js'
import { TreeWatcher, type TreeWatchOptions } from './tree-watcher.js'

type Seen = [event: string, path: string][]

const open: { close(): Promise<unknown> }[] = []
afterEach(async () => {
  while (open.length) await open.pop()!.close()
})

async function watching(root: string, opts: TreeWatchOptions = { ignoreInitial: true }) {
  const w = new TreeWatcher(root, opts)
  const seen: Seen = []
  for (const ev of ['add', 'change', 'unlink'] as const) w.on(ev, (p) => seen.push([ev, p]))
  open.push(w)
  await w.start()
  return { w, seen }
}

/** Waits until `seen` holds at least `n` events, then a little longer for any extra one. */
async function settle(seen: Seen, n: number, ms = 5000): Promise<Seen> {
  const until = Date.now() + ms
  while (seen.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
  await new Promise((r) => setTimeout(r, 150))
  return seen.splice(0)
}

/** The inotify watches this process holds (Linux), or undefined elsewhere. */
function inotifyWatches(): number | undefined {
  if (process.platform !== 'linux') return undefined
  let n = 0
  for (const fd of readdirSync('/proc/self/fd')) {
    let target = ''
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`)
    } catch {
      continue
    }
    if (target.includes('inotify'))
      n += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify')).length
  }
  return n
}

describe('TreeWatcher: one OS watch per directory, events per file', () => {
  it('reports a new file, an edit in place, an atomic save (temp + rename) and a delete, each once', async () => {
    const root = tempDir()
    writeFileSync(join(root, 'old.md'), 'a')
    const { seen } = await watching(root, {
      ignoreInitial: true,
      ignored: (p) => p.endsWith('.tmp'),
    })
    writeFileSync(join(root, 'new.md'), 'x')
    expect(await settle(seen, 1)).toEqual([['add', join(root, 'new.md')]])
    writeFileSync(join(root, 'old.md'), 'edited in place')
    expect(await settle(seen, 1)).toEqual([['change', join(root, 'old.md')]])
    writeFileSync(join(root, '.new.md.tmp'), 'saved atomically')
    renameSync(join(root, '.new.md.tmp'), join(root, 'new.md'))
    expect(await settle(seen, 1)).toEqual([['change', join(root, 'new.md')]])
    unlinkSync(join(root, 'old.md'))
    expect(await settle(seen, 1)).toEqual([['unlink', join(root, 'old.md')]])
  })

  it('follows a new subdirectory, and unlinks every file of one removed', async () => {
    const root = tempDir()
    const { seen } = await watching(root)
    mkdirSync(join(root, 'team', 'deep'), { recursive: true })
    await settle(seen, 0)
    writeFileSync(join(root, 'team', 'a.md'), 'a')
    writeFileSync(join(root, 'team', 'deep', 'b.md'), 'b')
    expect((await settle(seen, 2)).sort()).toEqual([
      ['add', join(root, 'team', 'a.md')],
      ['add', join(root, 'team', 'deep', 'b.md')],
    ])
    rmSync(join(root, 'team'), { recursive: true })
    expect((await settle(seen, 2)).sort()).toEqual([
      ['unlink', join(root, 'team', 'a.md')],
      ['unlink', join(root, 'team', 'deep', 'b.md')],
    ])
  })

  it('a subdirectory created with its files already in it reports them as added', async () => {
    const root = tempDir()
    const outside = tempDir()
    mkdirSync(join(outside, 'moved'))
    writeFileSync(join(outside, 'moved', 'c.md'), 'c')
    const { seen } = await watching(root)
    renameSync(join(outside, 'moved'), join(root, 'moved'))
    expect(await settle(seen, 1)).toEqual([['add', join(root, 'moved', 'c.md')]])
  })

  it('reports the files already there as added before start resolves, unless told not to', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'sub'))
    writeFileSync(join(root, 'a.md'), 'a')
    writeFileSync(join(root, 'sub', 'b.md'), 'b')
    const { seen } = await watching(root, { ignoreInitial: false })
    expect(seen.map(([e, p]) => [e, p]).sort()).toEqual([
      ['add', join(root, 'a.md')],
      ['add', join(root, 'sub', 'b.md')],
    ])
  })

  it('depth 0 follows only the root’s own files', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'sub'))
    const { seen } = await watching(root, { ignoreInitial: true, depth: 0 })
    writeFileSync(join(root, 'sub', 'deep.md'), 'x')
    writeFileSync(join(root, 'top.md'), 'x')
    expect(await settle(seen, 1)).toEqual([['add', join(root, 'top.md')]])
  })

  it('ignored files are neither reported nor stat’ed into events, with their kind known', async () => {
    const root = tempDir()
    const kinds: string[] = []
    const { seen } = await watching(root, {
      ignoreInitial: true,
      ignored: (p, kind) => {
        if (kind) kinds.push(kind.isFile() ? 'file' : kind.isDirectory() ? 'dir' : 'other')
        return Boolean(kind?.isFile() && !p.endsWith('.jsonl'))
      },
    })
    writeFileSync(join(root, 'notes.txt'), 'x')
    writeFileSync(join(root, 's.jsonl'), 'x')
    expect(await settle(seen, 1)).toEqual([['add', join(root, 's.jsonl')]])
    expect(kinds).toContain('file')
  })

  it('thousands of files take one watch per directory, not one each', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'team'))
    for (let i = 0; i < 3000; i++) writeFileSync(join(root, i % 3 ? `m${i}.md` : `team/t${i}.md`), 'x')
    const before = inotifyWatches()
    const { w, seen } = await watching(root)
    expect(w.watched()).toHaveLength(3000)
    if (before !== undefined) expect(inotifyWatches()! - before).toBe(2)
    writeFileSync(join(root, 'team', 't0.md'), 'edited')
    expect(await settle(seen, 1)).toEqual([['change', join(root, 'team', 't0.md')]])
  })

  it('closing leaves no OS watch open, also when notifications reached new dirs while the walk ran', async () => {
    const root = tempDir()
    for (let d = 0; d < 150; d++) {
      mkdirSync(join(root, `d${d}`))
      for (let f = 0; f < 10; f++) writeFileSync(join(root, `d${d}`, `f${f}.md`), 'x')
    }
    const watches = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length
    await new Promise((r) => setTimeout(r, 50)) // the watches earlier tests closed are gone
    const before = watches()
    const w = new TreeWatcher(root, { ignoreInitial: true, settleMs: 1 })
    let walking = true
    const started = w.start().finally(() => (walking = false))
    // Each chmod notifies the root about a dir, which the walk may be reaching at the same moment.
    while (walking) {
      for (let d = 0; d < 150; d++) chmodSync(join(root, `d${d}`), 0o755)
      await new Promise((r) => setTimeout(r, 2))
    }
    await started
    await new Promise((r) => setTimeout(r, 200))
    expect(watches() - before).toBe(151)
    await w.close()
    await new Promise((r) => setTimeout(r, 50))
    expect(watches()).toBe(before)
  })

  it('a symlink loop is followed once, and a symlinked file is reported', async () => {
    const root = tempDir()
    const outside = tempDir()
    writeFileSync(join(outside, 'linked.md'), 'x')
    mkdirSync(join(root, 'a'))
    symlinkSync(root, join(root, 'a', 'loop'))
    symlinkSync(join(outside, 'linked.md'), join(root, 'link.md'))
    const { w } = await watching(root, { ignoreInitial: false })
    expect(w.watched()).toEqual([join(root, 'link.md')])
  })

  it('a file replaced by a dir of the same name is unlinked, and the dir’s files added', async () => {
    const root = tempDir()
    writeFileSync(join(root, 'x'), 'file')
    const { seen } = await watching(root)
    unlinkSync(join(root, 'x'))
    mkdirSync(join(root, 'x'))
    writeFileSync(join(root, 'x', 'in.md'), 'y')
    const got = await settle(seen, 2)
    expect(got).toContainEqual(['unlink', join(root, 'x')])
    expect(got).toContainEqual(['add', join(root, 'x', 'in.md')])
  })
})

describe('watchDir', () => {
  it('follows a dir removed and created again: its files unlinked, then the new ones added', async () => {
    const parent = tempDir()
    const dir = join(parent, 'memory')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a.md'), 'a')
    const seen: Seen = []
    let starts = 0
    const watch: DirWatch = await watchDir(
      dir,
      { ignoreInitial: true },
      (w, late) => {
        starts++
        expect(late).toBe(starts > 1)
        for (const ev of ['add', 'change', 'unlink'] as const) w.on(ev, (p) => seen.push([ev, p]))
      },
      50,
    )
    open.push(watch)
    rmSync(dir, { recursive: true })
    expect(await settle(seen, 1)).toEqual([['unlink', join(dir, 'a.md')]])
    mkdirSync(dir)
    writeFileSync(join(dir, 'b.md'), 'b')
    expect(await settle(seen, 1)).toEqual([['add', join(dir, 'b.md')]])
    writeFileSync(join(dir, 'c.md'), 'c')
    expect(await settle(seen, 1)).toEqual([['add', join(dir, 'c.md')]])
    expect(starts).toBe(2)
  })

  it('a dir that does not exist yet is followed from when it appears, its files reported as added', async () => {
    const parent = tempDir()
    const dir = join(parent, 'later')
    const seen: Seen = []
    open.push(
      await watchDir(dir, { ignoreInitial: true }, (w) => w.on('add', (p) => seen.push(['add', p])), 50),
    )
    mkdirSync(dir)
    writeFileSync(join(dir, 'first.md'), 'x')
    expect(await settle(seen, 1)).toEqual([['add', join(dir, 'first.md')]])
  })
})
