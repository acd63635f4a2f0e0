import { diffArrays } from 'diff'

export type DiffLine = { op: 'same' | 'add' | 'del'; text: string }

/** A diff never holds the main process longer than this; past it the change shows as replaced. */
const DIFF_TIMEOUT_MS = 200

const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'))

/**
 * Line diff (Myers, from the `diff` package): O((N+M)·D) time, linear memory. A pathological pair
 * that would take longer than 200 ms is shown as all lines removed, then all added.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = linesOf(before)
  const b = linesOf(after)
  const changes = diffArrays(a, b, { timeout: DIFF_TIMEOUT_MS })
  if (!changes)
    return [
      ...a.map((text) => ({ op: 'del' as const, text })),
      ...b.map((text) => ({ op: 'add' as const, text })),
    ]
  const out: DiffLine[] = []
  for (const c of changes) {
    const op = c.added ? 'add' : c.removed ? 'del' : 'same'
    for (const text of c.value) out.push({ op, text })
  }
  return out
}
