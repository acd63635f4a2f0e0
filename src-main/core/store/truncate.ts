import { formatFileSize } from './format-size.js'

export const MAX_ENTRYPOINT_LINES = 200
export const MAX_ENTRYPOINT_BYTES = 25_000

export interface EntrypointTruncation {
  /** What the agent sees: possibly cut, with the warning appended when cut. */
  content: string
  lineCount: number
  byteCount: number
  wasLineTruncated: boolean
  wasByteTruncated: boolean
  /** Lines (1-based, of the trimmed input) kept; lines after it were cut. */
  keptLines: number
  warning?: string
}

function cutAtLastNewline(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8')
  if (buf.length <= maxBytes) return text
  const nl = buf.lastIndexOf(10, maxBytes - 1)
  if (nl > 0) return buf.subarray(0, nl).toString('utf8')
  // One giant line: cut at the limit, backing off to a UTF-8 character boundary.
  let end = maxBytes
  while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end--
  return buf.subarray(0, end).toString('utf8')
}

/**
 * SPEC §3/§10: trim, cut to 200 lines, then cut at the last newline before 25,000 bytes;
 * append a warning that names why. The byte reason uses the original size.
 */
export function truncateEntrypointContent(raw: string): EntrypointTruncation {
  const trimmed = raw.trim()
  const lines = trimmed === '' ? [] : trimmed.split('\n')
  const lineCount = lines.length
  const byteCount = Buffer.byteLength(trimmed, 'utf8')
  const wasLineTruncated = lineCount > MAX_ENTRYPOINT_LINES
  const wasByteTruncated = byteCount > MAX_ENTRYPOINT_BYTES

  if (!wasLineTruncated && !wasByteTruncated) {
    return {
      content: trimmed,
      lineCount,
      byteCount,
      wasLineTruncated,
      wasByteTruncated,
      keptLines: lineCount,
    }
  }

  let truncated = wasLineTruncated ? lines.slice(0, MAX_ENTRYPOINT_LINES).join('\n') : trimmed
  truncated = cutAtLastNewline(truncated, MAX_ENTRYPOINT_BYTES)
  const keptLines = truncated === '' ? 0 : truncated.split('\n').length

  const reason =
    wasByteTruncated && !wasLineTruncated
      ? `${formatFileSize(byteCount)} (limit: ${formatFileSize(MAX_ENTRYPOINT_BYTES)}) — index entries are too long`
      : wasLineTruncated && !wasByteTruncated
        ? `${lineCount} lines (limit: ${MAX_ENTRYPOINT_LINES})`
        : `${lineCount} lines and ${formatFileSize(byteCount)}`
  const warning =
    `WARNING: MEMORY.md is ${reason}. Only part of it was loaded. ` +
    'Keep each index entry to one short line (under ~200 characters) and move detail into topic files.'
  return {
    content: `${truncated}\n\n> ${warning}`,
    lineCount,
    byteCount,
    wasLineTruncated,
    wasByteTruncated,
    keptLines,
    warning,
  }
}
