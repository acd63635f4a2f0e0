import type { ReactNode } from 'react'

/** A row of toggle buttons, one of them pressed: the choice between a few modes or filters. */
export function Segmented<T extends string | boolean>({
  label,
  options,
  value,
  onChange,
  render = (o) => String(o),
}: {
  label: string
  options: readonly T[]
  value: T
  onChange: (v: T) => void
  render?: (o: T) => ReactNode
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={String(o)}
          type="button"
          className={value === o ? 'on' : ''}
          aria-pressed={value === o}
          onClick={() => onChange(o)}
        >
          {render(o)}
        </button>
      ))}
    </div>
  )
}
