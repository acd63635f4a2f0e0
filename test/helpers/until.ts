type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>
type Probe<T> = () => T | Promise<T>

/**
 * Waits for a condition the test can observe (a file written, a request received, a row shown)
 * and returns what the probe saw. Fails with `what` after `ms`, so a hang names what never came.
 */
export function until<T>(probe: Probe<T>, ms?: number): Promise<Truthy<T>>
export function until<T>(what: string, probe: Probe<T>, ms?: number): Promise<Truthy<T>>
export async function until<T>(
  ...args: [Probe<T>, number?] | [string, Probe<T>, number?]
): Promise<Truthy<T>> {
  const [what, probe, ms = 10_000] =
    typeof args[0] === 'string'
      ? (args as [string, Probe<T>, number?])
      : (['the condition', ...(args as [Probe<T>, number?])] as const)
  const end = Date.now() + ms
  for (;;) {
    const seen = await probe()
    if (seen) return seen as Truthy<T>
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
