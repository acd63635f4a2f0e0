import type { ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'

const WIKI = 'memdir-memory:'

interface MdNode {
  type: string
  value?: string
  url?: string
  children?: MdNode[]
}

/** `[[name]]` and `[[name|label]]` (how newer Claude Code links memories) become links to the memory. */
function remarkWikiLinks() {
  const split = (node: MdNode): MdNode[] => {
    if (node.type !== 'text' || !node.value?.includes('[[')) return [node]
    const out: MdNode[] = []
    let last = 0
    for (const m of node.value.matchAll(/\[\[([^\]|#\n]+)(?:\|([^\]\n]+))?\]\]/g)) {
      if (m.index > last) out.push({ type: 'text', value: node.value.slice(last, m.index) })
      const name = m[1]!.trim()
      out.push({
        type: 'link',
        url: WIKI + encodeURIComponent(name),
        children: [{ type: 'text', value: (m[2] ?? name).trim() }],
      })
      last = m.index + m[0].length
    }
    if (last < node.value.length) out.push({ type: 'text', value: node.value.slice(last) })
    return out
  }
  const walk = (node: MdNode) => {
    if (!node.children || node.type === 'link' || node.type === 'code' || node.type === 'inlineCode') return
    node.children = node.children.flatMap(split)
    node.children.forEach(walk)
  }
  return (tree: MdNode) => walk(tree)
}

/** Only our memory links and plain web links survive; everything else (javascript:, file:) is dropped. */
const safeUrl = (url: string) => (url.startsWith(WIKI) || /^(https?:|mailto:)/i.test(url) ? url : '')

/**
 * The preview (react-markdown with GitHub-flavoured Markdown). Raw HTML is never rendered, and
 * links never navigate the app: a memory link opens the memory, a web link shows its address.
 */
export function MarkdownPreview({
  source,
  onOpenMemory,
}: {
  source: string
  onOpenMemory: (name: string) => void
}) {
  const components: Components = {
    a: ({ href, children }) => {
      if (href?.startsWith(WIKI)) {
        const name = decodeURIComponent(href.slice(WIKI.length))
        return (
          <button
            type="button"
            className="link-button wiki-link"
            title={`Open ${name}`}
            onClick={() => onOpenMemory(name)}
          >
            {children as ReactNode}
          </button>
        )
      }
      return (
        <span className="link" title={href}>
          {children as ReactNode}
        </span>
      )
    },
  }
  if (!source.trim())
    return (
      <div className="markdown">
        <p className="muted">Nothing to preview.</p>
      </div>
    )
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm, remarkWikiLinks]}
        skipHtml
        urlTransform={safeUrl}
        components={components}
      >
        {source}
      </ReactMarkdown>
    </div>
  )
}
