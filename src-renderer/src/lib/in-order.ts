/**
 * Answers shown in the order they were asked for. A refresh asked twice (two changes on disk, a
 * reconnect) may be answered out of order; an answer older than the one on screen is dropped, so a
 * late, stale answer never replaces a newer one.
 */
export function inOrder() {
  let asked = 0
  let shown = 0
  return async <T>(answer: Promise<T>, show: (value: T) => void): Promise<void> => {
    const mine = ++asked
    const value = await answer
    if (mine < shown) return
    shown = mine
    show(value)
  }
}
