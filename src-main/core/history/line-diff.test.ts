import { describe, expect, it } from 'vitest'
import { diffLines } from './line-diff.js'

const lines = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n'

describe('line diff on large files', () => {
  it('finds exactly the changed lines of a 10,000-line file', () => {
    const before = lines(10_000, (i) => `line ${i}: the deploy pipeline step ${i % 97}`)
    const after = lines(10_000, (i) =>
      i % 100 === 7 ? `line ${i}: EDITED` : `line ${i}: the deploy pipeline step ${i % 97}`,
    )
    const d = diffLines(before, after)
    expect(d.filter((l) => l.op === 'add')).toHaveLength(100)
    expect(d.filter((l) => l.op === 'del')).toHaveLength(100)
    expect(d.filter((l) => l.op === 'same')).toHaveLength(9_900)
    expect(d.find((l) => l.op === 'add')).toEqual({ op: 'add', text: 'line 7: EDITED' })
  })

  it('two unrelated large files still give a complete answer: everything removed, everything added', () => {
    const before = lines(20_000, (i) => `a${i * 7919}`)
    const after = lines(20_000, (i) => `b${i * 104729}`)
    const d = diffLines(before, after)
    expect(d.filter((l) => l.op === 'del')).toHaveLength(20_000)
    expect(d.filter((l) => l.op === 'add')).toHaveLength(20_000)
  })
})
