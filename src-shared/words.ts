/**
 * Counts and times in words, the same in the app's messages and its window: plural forms from
 * Intl.PluralRules (never "file(s)"), relative times from Intl.RelativeTimeFormat (never "0.0 h").
 */
const plurals = new Intl.PluralRules('en')
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/** "1 file", "2 files", "1,200 memories" (`many` for irregular plurals). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${plurals.select(n) === 'one' ? one : many}`
}

/** How long ago (or, for a negative span, in how long) `ms` is: "now", "3 minutes ago", "yesterday". */
export function ago(ms: number): string {
  const s = -Math.round(ms / 1000)
  const abs = Math.abs(s)
  if (abs < 45) return relative.format(0, 'second')
  if (abs < 3600) return relative.format(Math.round(s / 60), 'minute')
  if (abs < 86_400) return relative.format(Math.round(s / 3600), 'hour')
  return relative.format(Math.round(s / 86_400), 'day')
}

/** A span as a duration: "24 hours", "90 minutes", "1 day". */
export function span(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (minutes < 120) return count(minutes, 'minute')
  const hours = Math.round(ms / 3_600_000)
  if (hours < 48) return count(hours, 'hour')
  return count(Math.round(ms / 86_400_000), 'day')
}
