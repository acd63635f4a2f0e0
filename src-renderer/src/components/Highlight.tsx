import type { ReactNode } from 'react'

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `text` with every occurrence of `terms` (case-insensitive, word starts) marked. */
export function Highlight({ text, terms }: { text: string; terms: readonly string[] }) {
  const words = terms.filter((t) => t.length > 1)
  if (!words.length) return <>{text}</>
  const re = new RegExp(`(${words.map(escape).join('|')})`, 'gi')
  const out: ReactNode[] = []
  let last = 0
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index))
    out.push(<mark key={m.index}>{m[0]}</mark>)
    last = m.index + m[0].length
  }
  out.push(text.slice(last))
  return <>{out}</>
}
