import type { ReactNode } from 'react'

/** A small, safe Markdown preview (headings, lists, code, bold, italics, links as text). No raw HTML. */
function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = []
  const re = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*|\[[^\]]+\]\([^)]+\))/g
  let last = 0
  let m: RegExpExecArray | null
  let i = 0
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index))
    const t = m[0]
    const k = `${key}-${i++}`
    if (t.startsWith('`')) out.push(<code key={k}>{t.slice(1, -1)}</code>)
    else if (t.startsWith('**')) out.push(<strong key={k}>{t.slice(2, -2)}</strong>)
    else if (t.startsWith('*')) out.push(<em key={k}>{t.slice(1, -1)}</em>)
    else {
      const [, label, href] = /\[([^\]]+)\]\(([^)]+)\)/.exec(t) ?? []
      out.push(
        <span key={k} className="link" title={href}>
          {label}
        </span>,
      )
    }
    last = m.index + t.length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

export function Markdown({ source }: { source: string }) {
  const blocks: ReactNode[] = []
  const lines = source.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line.startsWith('```')) {
      const code: string[] = []
      while (++i < lines.length && !(lines[i] ?? '').startsWith('```')) code.push(lines[i] ?? '')
      blocks.push(<pre key={i}>{code.join('\n')}</pre>)
      continue
    }
    const h = /^(#{1,4})\s+(.*)$/.exec(line)
    if (h) {
      const level = Math.min(6, (h[1] as string).length + 2)
      const Tag = `h${level}` as 'h3'
      blocks.push(<Tag key={i}>{inline(h[2] as string, `h${i}`)}</Tag>)
      continue
    }
    if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const items: string[] = []
      const ordered = /^\s*\d+\./.test(line)
      while (i < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[i] ?? ''))
        items.push((lines[i++] ?? '').replace(/^\s*([-*]|\d+\.)\s+/, ''))
      i--
      const List = ordered ? 'ol' : 'ul'
      blocks.push(
        <List key={i}>
          {items.map((it, j) => (
            <li key={j}>{inline(it, `l${i}-${j}`)}</li>
          ))}
        </List>,
      )
      continue
    }
    if (line.trim()) blocks.push(<p key={i}>{inline(line, `p${i}`)}</p>)
  }
  return (
    <div className="markdown">{blocks.length ? blocks : <p className="muted">Nothing to preview.</p>}</div>
  )
}
