/**
 * Runs async steps one after another, in the order they were asked for. For state that a read
 * fills in: two reads under way at once (a poll beside an append, a settle beside a flush) indexed
 * the same lines twice, or let the older read, finishing last, undo the newer one.
 */
export class SerialQueue {
  private last: Promise<unknown> = Promise.resolve()

  run<T>(step: () => Promise<T>): Promise<T> {
    const result = this.last.then(step)
    this.last = result.catch(() => undefined)
    return result
  }
}
