import { TeamApiError } from './api-client.js'

export interface RetryOptions {
  retries?: number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** 500 ms × 2^(n−1), capped at 32 s, plus up to 25 % jitter. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(500 * 2 ** (attempt - 1), 32_000)
  return Math.round(base + base * 0.25 * random())
}

/** Retries transient failures (network, 5xx, 409, 429); permanent ones surface at once. */
export async function withRetries<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const retries = opts.retries ?? 3
  const sleep = opts.sleep ?? defaultSleep
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn()
    } catch (e) {
      const transient = e instanceof TeamApiError && !e.permanent
      if (!transient || attempt >= retries) throw e
      await sleep(retryDelayMs(attempt + 1, opts.random))
    }
  }
}
