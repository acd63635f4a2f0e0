import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { removeStaleTempFiles } from './atomic-write.js'
import { lockPathOf, withFileLock } from './file-lock.js'
import { createMemory, readMemory, updateMemory } from './memory-files.js'

const CHILD = fileURLToPath(new URL('../../../test/helpers/create-memories-child.ts', import.meta.url))
const fields = (name: string) => ({
  name,
  description: `about ${name}`,
  type: 'project' as const,
  body: 'b\n',
})
const pointers = (dir: string) => readFileSync(join(dir, 'MEMORY.md'), 'utf8').trim().split('\n').sort()

describe('writers of one file take turns', () => {
  it('eight memories saved at once each keep their MEMORY.md line (the index was read eight times, written last-wins)', async () => {
    const dir = tempDir()
    const names = Array.from({ length: 8 }, (_, i) => `Topic ${i}`)
    await Promise.all(names.map((n) => createMemory(dir, fields(n))))
    expect(pointers(dir)).toHaveLength(8)
    for (let i = 0; i < 8; i++) expect(pointers(dir)[i]).toContain(`(topic_${i}.md)`)
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([])
  })

  it('two processes saving memories into one dir at once: every pointer is there', async () => {
    const dir = tempDir()
    const run = (prefix: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, prefix, '15'], {
          stdio: 'inherit',
        })
        child.on('exit', resolve)
      })
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0])
    const lines = pointers(dir)
    expect(lines).toHaveLength(30)
    for (const p of ['a', 'b'])
      for (let i = 0; i < 15; i++) expect(lines.join('\n')).toContain(`(${p}_${i}.md)`)
  }, 60_000)

  it('two saves of one memory against the hash both read: one is saved, the other is a conflict', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields('Shared'))
    const results = await Promise.allSettled(
      ['first', 'second'].map((body) =>
        updateMemory(dir, rec.relPath, { ...fields('Shared'), body }, rec.hash),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'CONFLICT',
    })
    const saved = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ body: string }>)
      .value
    expect((await readMemory(dir, rec.relPath)).body).toBe(saved.body)
  })

  it('a lock its holder left is taken over: at once when the pid is gone or is this process’s (an earlier process had it), else once stale; a lock that stays is named', async () => {
    const dir = tempDir()
    const file = join(dir, 'MEMORY.md')
    const dead = spawn(process.execPath, ['-e', '0'])
    await new Promise((r) => dead.once('exit', r))
    for (const pid of [dead.pid, process.pid]) {
      writeFileSync(lockPathOf(file), `${pid} abc.1`)
      const started = Date.now()
      expect(await withFileLock(file, async () => 'ran')).toBe('ran')
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(existsSync(lockPathOf(file))).toBe(false)
    }
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'])
    try {
      // A live program's pid (the holder hung, or the pid is another program's now): taken over once stale.
      writeFileSync(lockPathOf(file), `${holder.pid} abc.2`)
      const started = Date.now()
      expect(await withFileLock(file, async () => 'ran', { staleMs: 600, waitMs: 3_000 })).toBe('ran')
      expect(Date.now() - started).toBeGreaterThanOrEqual(500)
      // One that keeps being renewed outlasts the wait: the writer says which process holds it.
      writeFileSync(lockPathOf(file), `${holder.pid} abc.3`)
      await expect(
        withFileLock(file, async () => 'ran', { staleMs: 60_000, waitMs: 400 }),
      ).rejects.toMatchObject({
        code: 'BUSY',
        message: expect.stringContaining(`pid ${holder.pid}`),
      })
    } finally {
      holder.kill()
    }
  })

  it('the next start removes locks of writers that are gone, not a live one’s nor a file that only looks like one', async () => {
    const dir = tempDir()
    const dead = spawn(process.execPath, ['-e', '0'])
    await new Promise((r) => dead.once('exit', r))
    writeFileSync(join(dir, '.a.md.lock'), `${dead.pid} k1.1`)
    writeFileSync(join(dir, '.b.md.lock'), `${process.pid} k1.2`)
    writeFileSync(join(dir, '.c.lock'), `${dead.pid}`)
    expect(await removeStaleTempFiles(dir)).toEqual(['.a.md.lock'])
    expect(readdirSync(dir).sort()).toEqual(['.b.md.lock', '.c.lock'])
  })
})
