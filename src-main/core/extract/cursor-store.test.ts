import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import type { TranscriptMessage } from '../sessions/transcript.js'
import { type CursorStore, FileCursorStore, MemoryCursorStore } from './cursor-store.js'
import { extractedUpTo, messagesSince } from './mutual-exclusion.js'

const message = (uuid: string): TranscriptMessage => ({ uuid, role: 'user', content: [] })
const session = (...uuids: string[]) => uuids.map(message)

describe.each([
  ['in a file', () => new FileCursorStore(join(tempDir(), 'extraction', 'cursors.json'))],
  ['in memory', () => new MemoryCursorStore()],
] as [string, () => CursorStore][])('where extraction left off, %s', (_, make) => {
  it("keeps each session's cursor and the ends of its earlier runs", async () => {
    const store = make()
    expect(await store.runEnds()).toEqual(new Set())
    await store.set('a', 'a2')
    await store.set('a', 'a4')
    await store.set('a', 'a4') // a run that found nothing new
    await store.set('b', 'b2')
    expect(await store.get('a')).toBe('a4')
    expect(await store.get('c')).toBeUndefined()
    expect(await store.runEnds()).toEqual(new Set(['a2', 'a4', 'b2']))
  })

  it('a session forked from another starts after the last message the other was extracted to', async () => {
    const store = make()
    await store.set('a', 'a2')
    await store.set('a', 'a4')
    // Forked after a's second turn, and again after its first (Claude Code's rewind to a turn).
    const fork = session('a1', 'a2', 'a3', 'a4', 'f1', 'f2')
    const cursor = (await store.get('f')) ?? extractedUpTo(fork, await store.runEnds())
    expect(messagesSince(fork, cursor).map((m) => m.uuid)).toEqual(['f1', 'f2'])
    const early = session('a1', 'a2', 'g1', 'g2')
    expect(extractedUpTo(early, await store.runEnds())).toBe('a2')
    // A session of its own is extracted whole.
    expect(extractedUpTo(session('n1', 'n2'), await store.runEnds())).toBeUndefined()
  })

  it('remembers a bounded number of earlier ends per session', async () => {
    const store = make()
    for (let i = 1; i <= 100; i++) await store.set('long', `t${i}`)
    const ends = await store.runEnds()
    expect(ends.has('t100')).toBe(true)
    expect(ends.has('t68')).toBe(true)
    expect(ends.has('t67')).toBe(false)
    expect(ends.size).toBe(33)
  })
})

describe('the cursor file', () => {
  it('reads a file an older Memdir wrote (no earlier ends) and one edited by hand', async () => {
    const path = join(tempDir(), 'cursors.json')
    writeFileSync(
      path,
      JSON.stringify({
        old: { uuid: 'o1', at: 1 },
        odd: { uuid: 'd1', at: 2, earlier: ['d0', 7, null] },
        broken: { uuid: 42, at: 3 },
      }),
    )
    const store = new FileCursorStore(path)
    expect(await store.runEnds()).toEqual(new Set(['o1', 'd1', 'd0']))
    await store.set('old', 'o2')
    expect(await store.runEnds()).toEqual(new Set(['o1', 'o2', 'd1', 'd0']))
    expect(JSON.parse(readFileSync(path, 'utf8')).old).toMatchObject({ uuid: 'o2', earlier: ['o1'] })
  })
})
