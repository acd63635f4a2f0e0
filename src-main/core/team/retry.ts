import { TeamApiError } from './api-client.js'

/** Retries one sync may spend in all (a pull, its push and their 412 refreshes together). */
export const SYNC_RETRY_BUDGET = 6

export interface RetryBudget {
  /** Retries still allowed; every retry of every request of the sync takes one. */
  left: number
}

export const newRetryBudget = (left = SYNC_RETRY_BUDGET): RetryBudget => ({ left })

export interface RetryOptions {
  /** Retries of one request (default 3), within the budget. */
  retries?: number
  /** Shared by every request of one sync; without one, each request has only its own `retries`. */
  budget?: RetryBudget
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * The longest Retry-After a sync waits out itself. A server asking for longer ends the sync with
 * its error; the scheduler's next try waits as asked.
 */
export const MAX_WAIT_IN_SYNC_MS = 32_000

/** 500 ms × 2^(n−1), capped at 32 s, plus up to 25 % jitter. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(500 * 2 ** (attempt - 1), 32_000)
  return Math.round(base + base * 0.25 * random())
}

/**
 * Retries transient failures (network, 5xx, 408, 409, 429) with capped exponential backoff and
 * jitter, never sooner than the server's Retry-After, within the request's retries and the sync's
 * budget; permanent ones surface at once.
 */
export async function withRetries<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const retries = opts.retries ?? 3
  const sleep = opts.sleep ?? defaultSleep
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn()
    } catch (e) {
      const transient = e instanceof TeamApiError && !e.permanent
      if (!transient || attempt >= retries) throw e
      const asked = e.retryAfterMs ?? 0
      if (asked > MAX_WAIT_IN_SYNC_MS) throw e
      if (opts.budget) {
        if (opts.budget.left <= 0)
          throw new TeamApiError(
            `${e.message} (gave up: this sync used all its retries)`,
            e.status,
            false,
            e.body,
            e.retryAfterMs,
          )
        opts.budget.left--
      }
      await sleep(Math.max(retryDelayMs(attempt + 1, opts.random), asked))
    }
  }
}
