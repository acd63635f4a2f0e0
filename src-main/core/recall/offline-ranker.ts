import { parseMemoryFile } from '../store/frontmatter.js'
import { type MemoryHeader, readHeads } from '../store/scan.js'
import { MAX_RECALLED } from './selector-prompt.js'

const STOPWORDS = new Set(
  'a an and are as at be but by can do does for from has have how i in is it its me my of on or our should so that the their this to was we what when where which who why will with you your'.split(
    ' ',
  ),
)

export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((t) => t.length > 1 && !STOPWORDS.has(t))
}

interface Doc {
  header: MemoryHeader
  fields: { tokens: string[]; weight: number }[]
}

const K1 = 1.2
const B = 0.75

/**
 * The ranker used when no model is configured: BM25 over name (×3), description (×2) and
 * body (×1) of each candidate, reading at most the first 60 lines of each file.
 */
export async function rankMemoriesOffline(
  query: string,
  candidates: readonly MemoryHeader[],
  limit = MAX_RECALLED,
): Promise<{ header: MemoryHeader; score: number }[]> {
  const terms = [...new Set(tokenize(query))]
  if (!terms.length) return []
  const heads = await readHeads(
    candidates.map((c) => c.filePath),
    60,
  )
  const docs: Doc[] = []
  candidates.forEach((header, i) => {
    const head = heads[i]
    if (!head) return
    docs.push({
      header,
      fields: [
        { tokens: tokenize(`${header.name ?? ''} ${header.filename.replace(/[_./-]/g, ' ')}`), weight: 3 },
        { tokens: tokenize(header.description ?? ''), weight: 2 },
        { tokens: tokenize(parseMemoryFile(head.content).body), weight: 1 },
      ],
    })
  })
  if (!docs.length) return []
  const lengths = docs.map((d) => d.fields.reduce((n, f) => n + f.tokens.length, 0))
  const avgLen = lengths.reduce((a, b) => a + b, 0) / docs.length || 1
  const df = new Map<string, number>()
  for (const d of docs) {
    const seen = new Set(d.fields.flatMap((f) => f.tokens))
    for (const t of terms) if (seen.has(t)) df.set(t, (df.get(t) ?? 0) + 1)
  }
  const scored = docs.map((d, i) => {
    let score = 0
    for (const t of terms) {
      const n = df.get(t) ?? 0
      if (!n) continue
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))
      const tf = d.fields.reduce((s, f) => s + f.weight * f.tokens.filter((x) => x === t).length, 0)
      score += idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * (lengths[i] ?? 0)) / avgLen)))
    }
    return { header: d.header, score }
  })
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || b.header.mtimeMs - a.header.mtimeMs)
    .slice(0, limit)
}
