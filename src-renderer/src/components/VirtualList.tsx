import { useEffect, useRef, useState, type ReactNode } from 'react'

interface Props<T> {
  items: readonly T[]
  rowHeight: number
  render: (item: T, index: number) => ReactNode
  overscan?: number
  label: string
  /** Kept in view: scrolled to when it is outside the visible rows (a saved row that moved). */
  keepInView?: number
}

/** Renders only the rows in view: 10,000 memories stay fast. */
export function VirtualList<T>({ items, rowHeight, render, overscan = 8, label, keepInView }: Props<T>) {
  const ref = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [height, setHeight] = useState(600)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const ro = new ResizeObserver(() => setHeight(el.clientHeight))
    ro.observe(el)
    return () => ro.disconnect()
  }, [])
  useEffect(() => {
    const el = ref.current
    if (!el || keepInView === undefined || keepInView < 0) return
    const top = keepInView * rowHeight
    if (top < el.scrollTop || top + rowHeight > el.scrollTop + el.clientHeight)
      el.scrollTop = Math.max(0, top - el.clientHeight / 2 + rowHeight / 2)
  }, [keepInView, items, rowHeight])
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan)
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan)
  return (
    <div
      ref={ref}
      className="vlist"
      role="listbox"
      aria-label={label}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {items.slice(first, last).map((item, i) => (
          <div
            key={first + i}
            style={{
              position: 'absolute',
              top: (first + i) * rowHeight,
              left: 0,
              right: 0,
              height: rowHeight,
            }}
          >
            {render(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  )
}
