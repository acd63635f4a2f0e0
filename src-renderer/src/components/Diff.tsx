import type { DiffLine } from '../../../src-shared/types'

export function Diff({ lines, label }: { lines: DiffLine[]; label: string }) {
  if (!lines.length) return <p className="muted">(empty)</p>
  return (
    <pre className="diff" aria-label={label}>
      {lines.map((l, i) => (
        <div key={i} className={`diff-${l.op}`}>
          <span className="diff-sign">{l.op === 'add' ? '+' : l.op === 'del' ? '−' : ' '}</span>
          {l.text || ' '}
        </div>
      ))}
    </pre>
  )
}
