import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { FRONTMATTER_CASES } from '../../../test/fixtures/client-memory/cases.js'
import { parseMemoryHeaderFields } from './frontmatter.js'

const DIR = fileURLToPath(new URL('../../../test/fixtures/client-memory/', import.meta.url))

interface Findings {
  client: string
  reading: Record<string, { type: string | null; description: string | null } | null> | null
}

const byVersion = readdirSync(DIR)
  .filter((d) => d.startsWith('claude-code-'))
  .map((d) => JSON.parse(readFileSync(join(DIR, d, 'client.json'), 'utf8')) as Findings)
  .filter((f) => f.reading)
  .sort((a, b) => {
    const v = (f: Findings) => f.client.split('@').pop()!.split('.').map(Number)
    const [x, y] = [v(a), v(b)]
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!
  })
const newest = byVersion.at(-1)!

describe(`frontmatter as the newest client reads it (${newest.client})`, () => {
  it('covers at least 40 cases, each listed by the client', () => {
    expect(Object.keys(FRONTMATTER_CASES).length).toBeGreaterThanOrEqual(40)
    expect(Object.values(newest.reading!).filter(Boolean).length).toBe(Object.keys(FRONTMATTER_CASES).length)
  })

  it.each(Object.entries(FRONTMATTER_CASES))('%s', (name, content) => {
    const client = newest.reading![`${name}.md`]!
    const mine = parseMemoryHeaderFields(content)
    expect({ type: mine.type ?? null, description: mine.description }).toEqual(client)
  })
})
