import { appendFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { readAppended } from './appended-lines.js'

describe('readAppended', () => {
  it('returns only complete lines, and a character split across two writes whole', async () => {
    const file = join(tempDir(), 'log.jsonl')
    const line = Buffer.from('{"title":"Grüße 日本"}\n')
    const cut = line.indexOf(Buffer.from('日')) + 1 // inside the three bytes of 日
    writeFileSync(file, Buffer.concat([Buffer.from('{"a":1}\n'), line.subarray(0, cut)]))
    const first = await readAppended(file, { offset: 0 })
    expect(first).toMatchObject({ text: '{"a":1}\n', restarted: false })
    appendFileSync(file, line.subarray(cut))
    const second = await readAppended(file, { offset: first!.end, ino: first!.ino })
    expect(second!.text).toBe('{"title":"Grüße 日本"}\n')
    expect(await readAppended(file, { offset: second!.end })).toMatchObject({ text: '' })
  })

  it('starts over on a file that shrank or was replaced, and says so; a missing file is undefined', async () => {
    const dir = tempDir()
    const file = join(dir, 'log.jsonl')
    writeFileSync(file, 'one\ntwo\n')
    const read = await readAppended(file, { offset: 0 })
    writeFileSync(join(dir, 'new'), 'three\n')
    renameSync(join(dir, 'new'), file)
    expect(await readAppended(file, { offset: 4, ino: read!.ino })).toMatchObject({
      text: 'three\n',
      restarted: true,
    })
    writeFileSync(file, 'x\n')
    expect(await readAppended(file, { offset: 6 })).toMatchObject({ text: 'x\n', restarted: true })
    expect(await readAppended(join(dir, 'gone'), { offset: 0 })).toBeUndefined()
  })

  it('starts over on other bytes under the same inode number (a log replaced twice can get its old number back)', async () => {
    const file = join(tempDir(), 'log.jsonl')
    writeFileSync(file, '{"id":1}\n{"id":2}\n')
    const read = await readAppended(file, { offset: 0 })
    expect(read!.tail.toString()).toBe('{"id":1}\n{"id":2}\n')
    // The same inode, longer than what was read, with other lines before the offset.
    writeFileSync(file, '{"id":2}\n{"id":3}\n{"id":4}\n')
    const again = await readAppended(file, { offset: read!.end, ino: read!.ino, tail: read!.tail })
    expect(again).toMatchObject({ text: '{"id":2}\n{"id":3}\n{"id":4}\n', restarted: true })
    // Appended to as it was read: only the new line.
    appendFileSync(file, '{"id":5}\n')
    const next = await readAppended(file, { offset: again!.end, ino: again!.ino, tail: again!.tail })
    expect(next).toMatchObject({ text: '{"id":5}\n', restarted: false })
  })
})
