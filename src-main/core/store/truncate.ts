import { formatFileSize } from './format-size.js'
import { keptText, lineLoads } from './loaded-lines.js'

export const MAX_ENTRYPOINT_LINES = 200
/** Counted as Claude Code counts it: string length (UTF-16 code units), not UTF-8 bytes. */
export const MAX_ENTRYPOINT_CHARS = 25_000

/** What happens to each line of MEMORY.md when an agent loads it. */
export type EntrypointLineState = 'loaded' | 'stripped' | 'cut'

export interface EntrypointTruncation {
  /** What the agent sees: possibly cut, with the warning appended when cut. */
  content: string
  /** Lines and characters of the index once frontmatter and comments are stripped. */
  lineCount: number
  charCount: number
  wasLineTruncated: boolean
  wasCharTruncated: boolean
  /** Lines of the stripped index that were loaded; lines after it were cut. */
  keptLines: number
  /** One state per line of the CRLF-normalised file (`text.split('\n')`). */
  lineStates: EntrypointLineState[]
  warning?: string
}

/**
 * The index as an agent loads it (loaded-lines.ts): one entry per loaded line, its text and the raw
 * lines it comes from (more than one when a comment took the line break between them).
 */
function loadedLinesOf(all: readonly string[]): { text: string; raw: number[] }[] {
  const loads = lineLoads(all)
  const out: { text: string; raw: number[] }[] = []
  let open: { text: string; raw: number[] } | undefined
  loads.forEach((load, i) => {
    if (!load) return
    if (!open) out.push((open = { text: '', raw: [] }))
    open.text += keptText(all[i]!, load)
    open.raw.push(i)
    if (!load.joinsNext) open = undefined
  })
  return out
}

/** The last newline at or before `limit` (a newline right at the limit keeps the text before it). */
function cutAtLastNewline(text: string, limit: number): string {
  if (text.length <= limit) return text
  const nl = text.lastIndexOf('\n', limit)
  if (nl > 0) return text.slice(0, nl)
  // One giant line: cut at the limit without splitting a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[limit - 1] ?? '') ? limit - 1 : limit
  return text.slice(0, end)
}

export function normalizeEntrypointText(raw: string): string {
  return raw.replace(/\r\n?/g, '\n')
}

/**
 * SPEC §3/§10, as Claude Code loads MEMORY.md: CRLF normalised, frontmatter and HTML comments
 * stripped (loaded-lines.ts), trimmed; cut to 200 lines, then at the last newline at or before 25,000
 * characters; a warning names why (the size reason uses the size before the cut).
 */
export function truncateEntrypointContent(raw: string): EntrypointTruncation {
  const all = normalizeEntrypointText(raw).split('\n')
  const kept = loadedLinesOf(all)
  // trim(): leading and trailing blank lines go, and the outer whitespace of the first/last line.
  let lo = 0
  let hi = kept.length
  while (lo < hi && kept[lo]!.text.trim() === '') lo++
  while (hi > lo && kept[hi - 1]!.text.trim() === '') hi--
  const bodyLines = kept.slice(lo, hi)
  const text = bodyLines
    .map((l) => l.text)
    .join('\n')
    .trim()
  const lines = text === '' ? [] : text.split('\n')
  const lineCount = lines.length
  const charCount = text.length
  const wasLineTruncated = lineCount > MAX_ENTRYPOINT_LINES
  const wasCharTruncated = charCount > MAX_ENTRYPOINT_CHARS

  let truncated = wasLineTruncated ? lines.slice(0, MAX_ENTRYPOINT_LINES).join('\n') : text
  truncated = cutAtLastNewline(truncated, MAX_ENTRYPOINT_CHARS)
  const keptLines = truncated === '' ? 0 : truncated.split('\n').length
  const loaded = new Set(bodyLines.slice(0, keptLines).flatMap((l) => l.raw))
  const body = new Set(bodyLines.flatMap((l) => l.raw))
  const lineStates = all.map<EntrypointLineState>((_, i) =>
    loaded.has(i) ? 'loaded' : body.has(i) ? 'cut' : 'stripped',
  )
  const result = { lineCount, charCount, wasLineTruncated, wasCharTruncated, keptLines, lineStates }
  if (!wasLineTruncated && !wasCharTruncated) return { ...result, content: text }

  const reason =
    wasCharTruncated && !wasLineTruncated
      ? `${formatFileSize(charCount)} (limit: ${formatFileSize(MAX_ENTRYPOINT_CHARS)}) — index entries are too long`
      : wasLineTruncated && !wasCharTruncated
        ? `${lineCount} lines (limit: ${MAX_ENTRYPOINT_LINES})`
        : `${lineCount} lines and ${formatFileSize(charCount)}`
  const warning =
    `WARNING: MEMORY.md is ${reason}. Only part of it was loaded. ` +
    'Keep each index entry to one short line (under ~200 characters) and move detail into topic files.'
  return { ...result, content: `${truncated}\n\n> ${warning}`, warning }
}
