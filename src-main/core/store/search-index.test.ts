import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { MemorySearchIndex } from './search-index.js'
import { lateScanner } from '../../../test/helpers/late-scanner.js'

const mem = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`

describe('MemorySearchIndex', () => {
  it('finds a word that only appears in a body, with a snippet around it', async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'deploy.md'),
      mem('Deploys', 'how releases go out', 'The canary runs on flamingo hosts.'),
    )
    writeFile(join(dir, 'style.md'), mem('Code style', 'early returns', 'Nothing about birds.'))
    const index = new MemorySearchIndex([{ dir, prefix: '' }])
    const hits = await index.search('flamingo')
    expect(hits.map((h) => h.relPath)).toEqual(['deploy.md'])
    expect(hits[0]!.snippet).toContain('flamingo hosts')
    expect(hits[0]!.terms).toEqual(['flamingo'])
  })

  it('finds a word in the middle of Chinese, Japanese or Korean text, which has no spaces, with its snippet', async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'deploy.md'),
      mem('デプロイ手順', '本番環境へのデプロイ方法', 'quay ship を使う。ロールバックは手動です。'),
    )
    writeFile(join(dir, 'db.md'), mem('数据库迁移', '每次发布前先运行数据库迁移', '预发布环境'))
    writeFile(join(dir, 'review.md'), mem('코드 리뷰', '풀리퀘스트는 두 명의 승인이 필요합니다', ''))
    const index = new MemorySearchIndex([{ dir, prefix: '' }])
    const paths = async (q: string) => (await index.search(q)).map((h) => h.relPath)
    expect(await paths('環境')).toEqual(['deploy.md'])
    expect(await paths('方法')).toEqual(['deploy.md'])
    expect(await paths('环')).toEqual(['db.md'])
    expect(await paths('数据库')).toEqual(['db.md'])
    expect(await paths('리퀘스트')).toEqual(['review.md'])
    expect(await paths('本番 quay')).toEqual(['deploy.md'])
    expect(await paths('猫')).toEqual([])
    const [hit] = await index.search('手動')
    expect(hit!.terms).toEqual(['手動'])
    expect(hit!.snippet).toContain('ロールバックは手動です')
  })

  it('ranks a name match above a body-only match and matches word prefixes', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'a.md'), mem('Notes', 'misc', 'We talked about deploys once.'))
    writeFile(join(dir, 'b.md'), mem('Deploy checklist', 'steps', 'tag, build, ship'))
    const index = new MemorySearchIndex([{ dir, prefix: '' }])
    expect((await index.search('deploy')).map((h) => h.relPath)).toEqual(['b.md', 'a.md'])
    expect((await index.search('checkl')).map((h) => h.relPath)).toEqual(['b.md'])
  })

  it('keeps up with changed, new and deleted files, and lists agent memories under their prefix', async () => {
    const dir = tempDir()
    const agents = tempDir()
    writeFile(join(dir, 'a.md'), mem('A', 'first', 'old words'))
    writeFile(join(agents, 'reviewer', 'r.md'), mem('Reviewer', 'agent', 'checks flamingo code'))
    const index = new MemorySearchIndex([
      { dir, prefix: '' },
      { dir: agents, prefix: '@agent/' },
    ])
    expect((await index.search('flamingo')).map((h) => h.relPath)).toEqual(['@agent/reviewer/r.md'])
    writeFile(join(dir, 'a.md'), mem('A', 'first', 'new flamingo words'))
    writeFile(join(dir, 'b.md'), mem('B', 'second', 'more flamingo'))
    await index.update(['a.md', 'b.md'])
    expect((await index.search('flamingo')).map((h) => h.relPath).sort()).toEqual([
      '@agent/reviewer/r.md',
      'a.md',
      'b.md',
    ])
    expect(await index.search('old')).toEqual([])
    rmSync(join(dir, 'b.md'))
    await index.update(['b.md'])
    expect((await index.search('flamingo')).map((h) => h.relPath)).not.toContain('b.md')
    expect(index.size).toBe(2)
  })

  it('needs every query word, each in any field, and folds case and accents', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'release.md'), mem('Release train', 'weekly', 'Überprüfung before we ship to 東京.'))
    writeFile(join(dir, 'other.md'), mem('Ship log', 'cargo', 'nothing else'))
    const index = new MemorySearchIndex([{ dir, prefix: '' }])
    expect((await index.search('release ship')).map((h) => h.relPath)).toEqual(['release.md'])
    expect((await index.search('TRAIN weekly')).map((h) => h.relPath)).toEqual(['release.md'])
    const [hit] = await index.search('uberpr')
    expect(hit?.relPath).toBe('release.md')
    expect(hit?.terms).toEqual(['überprüfung'])
    expect(hit?.snippet).toContain('Überprüfung before')
    expect((await index.search('東京')).map((h) => h.relPath)).toEqual(['release.md'])
    expect(await index.search('release nowhere')).toEqual([])
    expect(await index.search('  ?! ')).toEqual([])
  })

  it('gives matched words and a snippet for the first 120 hits, and only path and rank after them', async () => {
    const dir = tempDir()
    for (let i = 0; i < 130; i++)
      writeFile(
        join(dir, `n${String(i).padStart(3, '0')}.md`),
        mem(`Note ${i}`, 'misc', 'the flamingo hosts'),
      )
    const hits = await new MemorySearchIndex([{ dir, prefix: '' }]).search('flam')
    expect(hits).toHaveLength(130)
    expect(
      hits.slice(0, 120).every((h) => h.terms.includes('flamingo') && h.snippet?.includes('flamingo')),
    ).toBe(true)
    expect(hits.slice(120).map((h) => [h.terms, h.snippet])).toEqual(Array(10).fill([[], undefined]))
  })

  it('an older read that comes back last does not undo a newer one (two updates of one file at once)', async () => {
    const dir = tempDir()
    const file = (body: string) => writeFile(join(dir, 'a.md'), mem('A', 'about a', body))
    file('the ostrich')
    const late = lateScanner('texts')
    const index = new MemorySearchIndex([{ dir, prefix: '' }], late.scanner)
    await index.load()
    file('the pelican')
    late.arm()
    const older = index.update(['a.md'])
    await new Promise((r) => setTimeout(r, 20))
    file('the flamingo')
    const newer = index.update(['a.md'])
    await new Promise((r) => setTimeout(r, 20))
    late.release()
    await Promise.all([older, newer])
    expect((await index.search('flamingo')).map((h) => h.relPath)).toEqual(['a.md'])
    expect(await index.search('pelican')).toEqual([])
  })
})
