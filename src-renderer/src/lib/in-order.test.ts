import { describe, expect, it } from 'vitest'
import { inOrder } from './in-order'

describe('inOrder', () => {
  it('drops an answer older than the one shown, and shows an older one until a newer arrives', async () => {
    const shown: string[] = []
    const show = inOrder()
    let answerFirst!: (v: string) => void
    let answerSecond!: (v: string) => void
    let answerThird!: (v: string) => void
    const first = show(new Promise<string>((r) => (answerFirst = r)), (v) => shown.push(v))
    const second = show(new Promise<string>((r) => (answerSecond = r)), (v) => shown.push(v))
    const third = show(new Promise<string>((r) => (answerThird = r)), (v) => shown.push(v))
    answerSecond('second')
    await second
    answerFirst('first')
    await first
    answerThird('third')
    await third
    expect(shown).toEqual(['second', 'third'])
  })
})
