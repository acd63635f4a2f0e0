import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { PostingsFile } from './postings-file.js'

const VERSION = 'test-version'
const doc = (filename: string, body: string) => ({
  filename,
  mtimeMs: 1000,
  size: 10,
  terms: [1, '|', '|', body] as const,
})

/** The file's meta line, changed by `edit`, with the rest of the file as it was written. */
function rewriteMeta(file: string, edit: (meta: Record<string, unknown>) => void): void {
  const text = readFileSync(file)
  const nl = text.indexOf(10)
  const meta = JSON.parse(text.subarray(0, nl).toString()) as Record<string, unknown>
  edit(meta)
  writeFileSync(file, Buffer.concat([Buffer.from(JSON.stringify(meta)), text.subarray(nl)]))
}

describe('the recall postings file', () => {
  it('answers a term with the memories that have it, and only while a memory keeps its stamps', async () => {
    const file = join(tempDir(), 'recall.idx')
    await PostingsFile.write(file, VERSION, [doc('a.md', '|kafka*2|lag*1|'), doc('b.md', '|kafka*1|')], [])
    const f = PostingsFile.load(file, VERSION)!
    try {
      expect(Array.from(f.list('kafka'))).toEqual([0, 0, 0, 2, 1, 0, 0, 1])
      expect(Array.from(f.list('lag'))).toEqual([0, 0, 0, 1])
      expect(Array.from(f.list('absent'))).toEqual([])
      expect(f.idOf('b.md', 1000, 10)).toBe(1)
      expect(f.idOf('b.md', 1001, 10)).toBe(-1)
      expect(f.idOf('b.md', 1000, 11)).toBe(-1)
    } finally {
      f.close()
    }
    expect(PostingsFile.load(file, 'another vocabulary')).toBeUndefined()
  })

  it('is not believed, and throws nothing, when its meta line points outside the file', async () => {
    const file = join(tempDir(), 'recall.idx')
    const write = () => PostingsFile.write(file, VERSION, [doc('a.md', '|kafka*2|')], [])
    const edits: ((m: Record<string, unknown>) => void)[] = [
      (m) => (m.docs = [-100_000, 5]), // before the file's start
      (m) => (m.docs = [0, 1e12]), // far past its end
      (m) => ((m.buckets as unknown[])[0] = [-50, 10]),
      (m) => (m.buckets as unknown[]).fill([0, 1e9]),
      (m) => (m.postings = [0, 1]), // the file is longer than it says
      (m) => (m.buckets = []),
    ]
    for (const edit of edits) {
      await write()
      rewriteMeta(file, edit)
      expect(PostingsFile.load(file, VERSION)).toBeUndefined()
    }
  })
})
