import { describe, expect, it } from 'vitest'
import { sameTopicPairs } from './contradictions.js'
import { memoryFacts } from './memory-facts.js'

const fact = (relPath: string, name: string, description: string) =>
  memoryFacts(relPath, `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\nbody\n`, 0)

describe('sameTopicPairs', () => {
  it('pairs memories whose names and descriptions share content words, in English and in Japanese or Chinese', async () => {
    const all = await Promise.all([
      fact('a.md', 'Deploy freeze window', 'no production deploys in the holiday freeze'),
      fact('b.md', 'Holiday freeze', 'production deploys need a VP during the freeze'),
      fact('c.md', 'デプロイ凍結期間', '年末年始は本番環境へのデプロイを禁止する'),
      fact('d.md', '年末のデプロイ', '本番環境へのデプロイは年末に一度だけ許可される'),
      fact('e.md', 'コードレビュー', 'プルリクエストには二人の承認が必要'),
    ])
    const pairs = sameTopicPairs(all, new Set()).map(([x, y]) => [x.relPath, y.relPath].sort().join(' '))
    expect(pairs.sort()).toEqual(['a.md b.md', 'c.md d.md'])
  })
})
