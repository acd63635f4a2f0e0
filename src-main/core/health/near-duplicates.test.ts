import { describe, expect, it } from 'vitest'
import { NearDuplicateIndex, shingle } from './near-duplicates.js'

const template = (i: number) =>
  `Rule ${i}: keep the ${i % 37} service behind the feature flag. Why: incident ${i}. ` +
  'How to apply: check the flag first. Background detail. '.repeat(6)

describe('NearDuplicateIndex', () => {
  it('a corpus of 2,000 near-copies makes at most three pairs per memory, and pairs nearly all of them', () => {
    const index = new NearDuplicateIndex(0.5)
    for (let i = 0; i < 2000; i++) index.set(`m${i}.md`, shingle(template(i)))
    const partners = new Map<string, number>()
    for (const p of index.list()) for (const k of [p.a, p.b]) partners.set(k, (partners.get(k) ?? 0) + 1)
    // Bounded search: a memory whose near-copies are not among the 200 it is compared with stays
    // unpaired (2 of 2,000 here); in a corpus that is not one template, buckets are small and it is exact.
    expect(partners.size).toBeGreaterThanOrEqual(1990)
    expect(index.list().length).toBeLessThanOrEqual(3 * 2000)
  })

  it('still finds the one near-copy among unrelated memories, and forgets a removed one', () => {
    const index = new NearDuplicateIndex(0.5)
    index.set('deploy.md', shingle('Deploys go through make ship; it tags the release and pushes the image.'))
    index.set(
      'deploy-copy.md',
      shingle('Deploys go through make ship; it tags the release and pushes the images.'),
    )
    index.set(
      'tests.md',
      shingle('Integration tests use the docker-compose postgres, never a mocked database.'),
    )
    expect(index.list().map((p) => [p.a, p.b])).toEqual([['deploy-copy.md', 'deploy.md']])
    index.remove('deploy-copy.md')
    expect(index.list()).toEqual([])
  })
  it('pairs two Japanese or Chinese memories that differ by a few characters, and not two different ones', () => {
    const index = new NearDuplicateIndex(0.5)
    index.set(
      'a.md',
      shingle('本番環境へのデプロイは必ずカナリアから始める。エラー率を三十分見てから全体に広げる。'),
    )
    index.set(
      'b.md',
      shingle('本番環境へのデプロイは必ずカナリアから始める。エラー率を一時間見てから全体に広げる。'),
    )
    index.set('c.md', shingle('数据库迁移必须先在预发布环境运行，然后才能在生产环境执行。'))
    index.set('d.md', shingle('数据库迁移必须先在预发布环境运行，然后才能在正式环境执行。'))
    index.set('e.md', shingle('コードレビューには二人の承認が必要です。'))
    expect(index.list().map((p) => [p.a, p.b].sort())).toEqual([
      ['a.md', 'b.md'],
      ['c.md', 'd.md'],
    ])
  })
})
