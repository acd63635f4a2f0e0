const DAY_MS = 86_400_000

/** Whole days since `mtimeMs` (floor); a future mtime (clock skew) counts as today. */
export function memoryAgeDays(mtimeMs: number, now: number = Date.now()): number {
  return Math.max(0, Math.floor((now - mtimeMs) / DAY_MS))
}

/** "today", "yesterday", "47 days ago" — models are poor at date arithmetic. */
export function memoryAge(mtimeMs: number, now: number = Date.now()): string {
  const d = memoryAgeDays(mtimeMs, now)
  if (d === 0) return 'today'
  if (d === 1) return 'yesterday'
  return `${d} days ago`
}

/** '' for memories from today or yesterday; else a staleness warning. */
export function memoryFreshnessText(mtimeMs: number, now: number = Date.now()): string {
  const d = memoryAgeDays(mtimeMs, now)
  if (d <= 1) return ''
  return (
    `This memory is ${d} days old. Memories are point-in-time observations, not live state — ` +
    'claims about code behavior or file:line citations may be outdated. Verify against the current code before asserting them as fact.'
  )
}

/** The freshness warning wrapped for callers that do not wrap it themselves. */
export function memoryFreshnessNote(mtimeMs: number, now: number = Date.now()): string {
  const text = memoryFreshnessText(mtimeMs, now)
  return text ? `<system-reminder>${text}</system-reminder>\n` : ''
}
