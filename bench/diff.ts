import { diffLines } from '../src-main/core/history/line-diff.js'
import { ratio, table, timeIt } from './lib.js'

/** The line diff Memdir had before (a full LCS table): the baseline, measured in the same run. */
function lcsDiff(before: string, after: string): number {
  const a = before.split('\n')
  const b = after.split('\n')
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
  return lcs[0]![0]!
}

const file = (n: number, edit: (i: number) => boolean) =>
  Array.from({ length: n }, (_, i) =>
    edit(i) ? `line ${i}: edited` : `line ${i}: the deploy step ${i % 97}`,
  ).join('\n')

/** History/review diffs of memory-sized and very large files: `diff` (Myers) against the old LCS. */
export async function benchDiff(): Promise<void> {
  const rows: Record<string, string | number>[] = []
  for (const n of [200, 4_000, 10_000]) {
    const before = file(n, () => false)
    const after = file(n, (i) => i % 50 === 3)
    const myers = await timeIt(async () => diffLines(before, after), 5, 1)
    const lcs = n <= 4_000 ? await timeIt(async () => lcsDiff(before, after), 3, 1) : NaN
    rows.push({
      lines: n.toLocaleString('en'),
      'diff (Myers) ms': myers.toFixed(1),
      'old LCS ms': Number.isNaN(lcs) ? 'n/a (O(N·M) memory)' : lcs.toFixed(1),
      'Myers / LCS': Number.isNaN(lcs) ? '' : ratio(myers, lcs),
      'LCS table cells': (n * n).toLocaleString('en'),
    })
  }
  console.log('\ndiff — line diff of a file with every 50th line edited')
  table(rows)
}
