import { describe, expect, it } from 'vitest'
import { injectedPathsIn, memoryHeaderLine } from './recall-header.js'

describe('the recalled memory header, written and read back', () => {
  it('reads back every header it writes, and nothing else', () => {
    const paths = ['/home/u/.claude/projects/p/memory/a.md', '/m/b c: d.md', 'C:\\Users\\u\\memory\\e.md']
    const text = [
      memoryHeaderLine(paths[0]!, 'today'),
      'body mentioning Memory: /not/a/header.md: inline',
      memoryHeaderLine(paths[1]!),
      memoryHeaderLine(paths[2]!, 'yesterday'),
      'Memory: relative.md:',
    ].join('\n')
    expect(injectedPathsIn(text)).toEqual(paths)
  })
})
