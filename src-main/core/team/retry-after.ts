/**
 * The wait a `Retry-After` header asks for, in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when there is none or it cannot be read; a date already past is 0.
 */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  // Only an HTTP date: Date.parse would also take "1.5", "2026" and other things no server means.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return undefined
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** How the wait reads in a message: "45 s", "5 min", "2 h". */
export function describeWait(ms: number): string {
  const s = Math.ceil(ms / 1000)
  if (s < 120) return `${s} s`
  const min = Math.ceil(s / 60)
  return min < 120 ? `${min} min` : `${Math.ceil(min / 60)} h`
}
