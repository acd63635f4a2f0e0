import type { UndoOutcome } from '../../../src-shared/types'
import { count, isOne, relativeWords } from '../../../src-shared/words'

/** Dates and sizes the way people read them: relative when recent, the user's locale otherwise. */

// Made at first use: the first Intl object a page makes loads the locale's data (~25 ms of the
// first screen on a slow machine): the memory list shows its ages without it until it is made.
let rtf: Intl.RelativeTimeFormat | undefined
let full: Intl.DateTimeFormat | undefined
let time: Intl.DateTimeFormat | undefined

export function fullDate(at: number): string {
  full ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
  return full.format(at)
}

/** "just now", "5 minutes ago", "yesterday", then the date, all in the user's locale. */
export function relativeDate(at: number, now = Date.now()): string {
  rtf ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
  return Math.abs(at - now) < 7 * 86_400_000 ? relativeWords(at - now, rtf) : fullDate(at)
}

/** "today", "yesterday", "47 days ago", in the user's locale. */
export function daysAgo(days: number): string {
  rtf ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
  return rtf.format(-days, 'day')
}

/**
 * daysAgo for the first screen: the formatter costs 30–50 ms to make (its locale's data), so the
 * memory list does not wait for it. Until it is made, undefined, and the formatter is made once the
 * browser is idle; `onReady` is called then (useDaysAgo redraws with it).
 */
export function daysAgoWhenReady(days: number, onReady: () => void): string | undefined {
  if (rtf) return daysAgo(days)
  waiting.add(onReady)
  if (waiting.size === 1)
    requestIdleCallback(
      () => {
        daysAgo(0)
        for (const f of [...waiting]) f()
        waiting.clear()
      },
      { timeout: 1000 },
    )
  return undefined
}
const waiting = new Set<() => void>()

export function clockTime(at: number): string {
  time ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })
  return time.format(at)
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

/** UTF-8 size of a text, as the agent's context sees it. */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length
}

/** A rough token count (≈ 4 characters per token for English prose and code). */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

/**
 * What an undo did, in one sentence: "Undone: 2 files back to before this run." and, when files
 * changed since were kept, which and why.
 */
export function undoMessage(outcome: UndoOutcome, before: string): string {
  const undone = `Undone: ${count(outcome.undone.length, 'file')} back to before ${before}.`
  if (!outcome.kept.length) return undone
  const kept = outcome.kept.map((k) => `${k.path} (${k.reason})`).join(', ')
  return `${undone} Kept as ${isOne(outcome.kept.length) ? 'it is' : 'they are'}: ${kept}; each file's history has the run's version.`
}

/** The last folder of a path (a project's name in the picker and in messages), `/` or `\\` alike. */
export function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path
}
