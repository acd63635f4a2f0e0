import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { indexLinePastCut } from './index-view.js'

const notes = (n: number) => Array.from({ length: n }, (_, i) => `Note ${i}: typed into the index.`)

describe('indexLinePastCut', () => {
  it("says whether a memory's line is one the agent never loads, in its own index (private or team)", async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'MEMORY.md'),
      ['- [Early](early.md) — in view', ...notes(205), '- [Late](late.md) — past the cut'].join('\n') + '\n',
    )
    writeFile(join(dir, 'team', 'MEMORY.md'), ['- [Team](conventions.md) — shared'].join('\n') + '\n')
    expect(await indexLinePastCut(dir, 'early.md')).toBe(false)
    expect(await indexLinePastCut(dir, 'late.md')).toBe(true)
    expect(await indexLinePastCut(dir, 'team/conventions.md')).toBe(false)
    expect(await indexLinePastCut(dir, 'unlisted.md')).toBe(false)
    expect(await indexLinePastCut(tempDir(), 'late.md')).toBe(false)
  })
})
