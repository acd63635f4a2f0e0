/**
 * Counts and times in words, the same in the app's messages and its window: plural forms from
 * Intl.PluralRules (never "file(s)"), relative times from Intl.RelativeTimeFormat (never "0.0 h").
 */
// Made when first used: a RelativeTimeFormat costs a cold process ~20 ms (ICU's data), and a CLI
// command or the prompt hook that loads this module may never show a time.
let plurals: Intl.PluralRules | undefined
let english: Intl.RelativeTimeFormat | undefined

/** "1 file", "2 files", "1,200 memories" (`many` for irregular plurals). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${isOne(n) ? one : many}`
}

/** Whether English takes the singular for `n` (by the plural rules): "1 line is", "2 lines are". */
export function isOne(n: number): boolean {
  plurals ??= new Intl.PluralRules('en')
  return plurals.select(n) === 'one'
}

/**
 * A number as English writes it, "1,200": a whole number's digits grouped in threes here, since
 * the first `toLocaleString` loads ICU's number data, ~30 ms of a CLI command that prints a count.
 */
export function grouped(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en')
}

/**
 * A moment `offsetMs` from now (negative: past) in words of `format`'s language: "now",
 * "3 minutes ago", "yesterday", "in 2 days".
 */
export function relativeWords(offsetMs: number, format?: Intl.RelativeTimeFormat): string {
  format ??= english ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
  const s = Math.round(offsetMs / 1000)
  const abs = Math.abs(s)
  if (abs < 45) return format.format(0, 'second')
  if (abs < 3600) return format.format(Math.round(s / 60), 'minute')
  if (abs < 86_400) return format.format(Math.round(s / 3600), 'hour')
  return format.format(Math.round(s / 86_400), 'day')
}

/** How long ago `ms` is, in English: "now", "3 minutes ago", "yesterday" (the app's messages). */
export function ago(ms: number): string {
  return relativeWords(-ms)
}

/** A span as a duration: "24 hours", "90 minutes", "1 day". */
export function span(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (minutes < 120) return count(minutes, 'minute')
  const hours = Math.round(ms / 3_600_000)
  if (hours < 48) return count(hours, 'hour')
  return count(Math.round(ms / 86_400_000), 'day')
}
