import * as real from 'node:fs/promises'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/temp-env.js'
import * as blocking from './blocking-fs-promises.js'

/** What each side answers, or the error code it rejects with. */
async function outcome<T>(p: Promise<T>): Promise<{ ok: T } | { code: unknown }> {
  try {
    return { ok: await p }
  } catch (e) {
    return { code: (e as NodeJS.ErrnoException).code }
  }
}

describe('the prompt hook’s fs/promises over the blocking calls', () => {
  it('answers and fails as node:fs/promises does, for every call the hook makes', async () => {
    const dir = tempDir()
    const results: Record<string, unknown[]> = {}
    // Called alike through the shim's (narrower) types.
    const sides: [string, typeof blocking][] = [
      ['real', real as unknown as typeof blocking],
      ['blocking', blocking],
    ]
    for (const [side, fsp] of sides) {
      const root = join(dir, side)
      mkdirSync(root)
      writeFileSync(join(root, 'a.md'), 'alpha\nbeta\n')
      const seen: unknown[] = []
      seen.push(await outcome(fsp.mkdir(join(root, 'x', 'y'), { recursive: true })))
      seen.push(await outcome(fsp.mkdir(join(root, 'x'))))
      seen.push(await outcome(fsp.readFile(join(root, 'a.md'), 'utf8')))
      seen.push((await fsp.readFile(join(root, 'a.md'))).toString('hex'))
      seen.push(await outcome(fsp.readFile(join(root, 'missing.md'), 'utf8')))
      await fsp.appendFile(join(root, 'a.md'), 'gamma\n')
      await fsp.writeFile(join(root, 'b.md'), 'bee')
      await fsp.utimes(join(root, 'b.md'), 1_700_000_000, 1_700_000_000)
      const st = await fsp.stat(join(root, 'b.md'))
      seen.push([st.size, st.mtimeMs, st.isFile()])
      seen.push(await outcome(fsp.stat(join(root, 'nope'))))
      seen.push(
        (await fsp.readdir(root, { withFileTypes: true })).map((e) => [e.name, e.isDirectory()]).sort(),
      )
      seen.push((await fsp.readdir(root)).sort())
      await fsp.rename(join(root, 'b.md'), join(root, 'c.md'))
      seen.push(await outcome(fsp.rename(join(root, 'b.md'), join(root, 'd.md'))))
      await fsp.link(join(root, 'c.md'), join(root, 'c-link.md'))
      seen.push(await outcome(fsp.link(join(root, 'c.md'), join(root, 'c-link.md'))))
      seen.push((await fsp.realpath(join(root, 'x', '..', 'c.md'))).endsWith(join(side, 'c.md')))
      await fsp.chmod(join(root, 'c.md'), 0o600)
      seen.push((await fsp.stat(join(root, 'c.md'))).mode & 0o777)
      await fsp.unlink(join(root, 'c-link.md'))
      seen.push(await outcome(fsp.unlink(join(root, 'c-link.md'))))
      // A file handle: exclusive create, write, sync, close; then a positioned read of its tail.
      const fh = await fsp.open(join(root, 'tmp'), 'wx', 0o600)
      await fh.chmod(0o640)
      await fh.writeFile('0123456789')
      await fh.sync()
      await fh.close()
      seen.push(await outcome(fsp.open(join(root, 'tmp'), 'wx')))
      const rh = await fsp.open(join(root, 'tmp'), 'r')
      const { size, mode } = await rh.stat()
      seen.push(mode & 0o777)
      const buf = Buffer.alloc(4)
      const { bytesRead } = await rh.read(buf, 0, 4, size - 4)
      await rh.close()
      seen.push([size, bytesRead, buf.toString()])
      seen.push(await outcome(fsp.readFile(join(root, 'a.md'), 'utf8')))
      results[side] = JSON.parse(JSON.stringify(seen).split(root).join('<root>')) as unknown[]
    }
    expect(results.blocking).toEqual(results.real)
    expect(results.real).toContainEqual({ code: 'ENOENT' })
    expect(results.real).toContainEqual({ code: 'EEXIST' })
  })
})
