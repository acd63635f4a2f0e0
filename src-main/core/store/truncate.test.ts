import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { MEMORY_MD_CASES } from '../../../test/fixtures/memory-md/cases.js'
import { MAX_ENTRYPOINT_CHARS, truncateEntrypointContent } from './truncate.js'

const lines = (n: number, width = 20) =>
  Array.from({ length: n }, (_, i) => `- [m${i}](m${i}.md) ${'x'.repeat(width)}`).join('\n')

const loadedPart = (content: string) => content.split('\n\n> WARNING')[0]!

describe('truncateEntrypointContent', () => {
  it('keeps exactly 200 lines untouched, with no warning', () => {
    const t = truncateEntrypointContent(lines(200))
    expect(t.wasLineTruncated).toBe(false)
    expect(t.warning).toBeUndefined()
    expect(t.content.split('\n')).toHaveLength(200)
  })

  it('cuts line 201 and names the line count', () => {
    const t = truncateEntrypointContent(lines(201))
    expect(t.wasLineTruncated).toBe(true)
    expect(t.wasCharTruncated).toBe(false)
    expect(t.keptLines).toBe(200)
    expect(t.content).not.toContain('[m200]')
    expect(t.lineStates.filter((s) => s === 'cut')).toHaveLength(1)
    expect(t.warning).toMatch(
      /^WARNING: MEMORY\.md is 201 lines \(limit: 200\)\. Only part of it was loaded\./,
    )
  })

  const exactChars = (total: number) => {
    // 10 lines whose trimmed length is exactly `total` characters
    const per = Math.floor((total - 9) / 10)
    const body = Array.from({ length: 10 }, () => 'y'.repeat(per))
    body[9] = 'y'.repeat(total - 9 - per * 9)
    return body.join('\n')
  }

  it('keeps exactly 25,000 characters untouched', () => {
    const raw = exactChars(MAX_ENTRYPOINT_CHARS)
    const t = truncateEntrypointContent(raw)
    expect(t.wasCharTruncated).toBe(false)
    expect(t.content).toBe(raw)
  })

  it('cuts 25,001 characters at the last newline and gives the size reason', () => {
    const raw = exactChars(MAX_ENTRYPOINT_CHARS + 1)
    const t = truncateEntrypointContent(raw)
    expect(t.wasCharTruncated).toBe(true)
    const kept = loadedPart(t.content)
    expect(kept.length).toBeLessThanOrEqual(25_000)
    expect(raw.startsWith(kept + '\n')).toBe(true)
    expect(t.keptLines).toBe(9)
    expect(t.warning).toContain('MEMORY.md is 24.4KB (limit: 24.4KB) — index entries are too long')
    expect(t.warning).toContain('move detail into topic files')
  })

  it('counts UTF-16 code units: a 27 KB CJK index of 10,000 characters is not cut', () => {
    const raw = Array.from(
      { length: 100 },
      (_, i) => `- [记忆${i}](m${i}.md) — ${'部署流程说明'.repeat(15)}`,
    ).join('\n')
    expect(Buffer.byteLength(raw)).toBeGreaterThan(27_000)
    const t = truncateEntrypointContent(raw)
    expect(t.wasCharTruncated).toBe(false)
    expect(t.content).toBe(raw)
  })

  it('keeps the text before a newline that sits exactly at the limit', () => {
    const head = 'a'.repeat(MAX_ENTRYPOINT_CHARS)
    const t = truncateEntrypointContent(`${head}\nmore`)
    expect(loadedPart(t.content)).toBe(head)
  })

  it('strips frontmatter and HTML comment blocks and normalises CRLF before the limits', () => {
    const raw = `---\r\ntitle: x\r\n---\r\n- [a](a.md)\r\n<!--\r\n${'note\r\n'.repeat(300)}-->\r\n- [b](b.md) <!-- inline stays -->\r\n`
    const t = truncateEntrypointContent(raw)
    expect(t.content).toBe('- [a](a.md)\n- [b](b.md) <!-- inline stays -->')
    expect(t.wasLineTruncated).toBe(false)
    expect(t.lineStates.slice(0, 4)).toEqual(['stripped', 'stripped', 'stripped', 'loaded'])
  })

  it('an unclosed frontmatter block is no frontmatter', () => {
    expect(truncateEntrypointContent('---\ntitle: x\n- [a](a.md)').content).toBe('---\ntitle: x\n- [a](a.md)')
  })

  it('names both reasons when both limits are exceeded', () => {
    const t = truncateEntrypointContent(lines(300, 200))
    expect(t.wasLineTruncated && t.wasCharTruncated).toBe(true)
    expect(t.warning).toContain(`300 lines and `)
    expect(loadedPart(t.content).length).toBeLessThanOrEqual(25_000)
  })

  it('trims surrounding whitespace first', () => {
    expect(truncateEntrypointContent('\n\n  - [a](a.md)\n\n').content).toBe('- [a](a.md)')
  })

  it('never splits a surrogate pair when one line is over the limit', () => {
    const t = truncateEntrypointContent('😀'.repeat(20_000))
    expect(loadedPart(t.content)).not.toMatch(/[\uD800-\uDBFF]$/)
  })
})

/** How the real client loaded each case (test/fixtures/memory-md/generate.ts). */
const DIR = fileURLToPath(new URL('../../../test/fixtures/memory-md/', import.meta.url))
const probes = readdirSync(DIR)
  .filter((f) => /^claude-code-.*\.json$/.test(f))
  .map((f) => ({
    file: f,
    ...(JSON.parse(readFileSync(DIR + f, 'utf8')) as {
      results: Record<string, { keptLines: string[]; appended: boolean } | null>
    }),
  }))

/**
 * Where clients differ, Memdir loads the index as the newest one does; the older client's record
 * must still show the difference (a re-recording that no longer does drops it from here).
 */
const OLDER_CLIENT_DIFFERS: Record<string, Record<string, string>> = {
  'claude-code-2.1.88.json': {
    'bom-frontmatter': 'keeps a frontmatter block that follows a byte order mark',
  },
}

describe.each(probes)('MEMORY.md as $file loaded it', ({ file, results }) => {
  it.each(Object.keys(MEMORY_MD_CASES))(
    '%s: the same lines, and a warning exactly when it warned',
    (name) => {
      const real = results[name]
      expect(real, `the probe recorded ${name}`).toBeTruthy()
      const t = truncateEntrypointContent(MEMORY_MD_CASES[name]!)
      if (OLDER_CLIENT_DIFFERS[file]?.[name]) {
        expect(loadedPart(t.content).split('\n'), OLDER_CLIENT_DIFFERS[file][name]).not.toEqual(
          real!.keptLines,
        )
        return
      }
      expect(loadedPart(t.content).split('\n')).toEqual(real!.keptLines)
      expect(t.warning !== undefined).toBe(real!.appended)
    },
  )
})
