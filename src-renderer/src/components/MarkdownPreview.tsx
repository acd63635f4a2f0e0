import { Component, type ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { indexLinksIn } from '../../../src-shared/index-links'

/** A link to a memory: `w:` a wikilink's target, `m:` a relative Markdown link's destination. */
const MEMORY = 'memdir-memory:'

interface MdNode {
  type: string
  value?: string
  url?: string
  children?: MdNode[]
}

/**
 * `[[name]]`, `[[name|label]]`, `[[name#heading]]` and `[[folder/name.md]]` (how Obsidian and newer
 * Claude Code link memories) become links to the memory, read as index-links.ts reads them in
 * MEMORY.md; an embed of an attachment (`![[diagram.png]]`) stays text.
 */
function remarkWikiLinks() {
  const split = (node: MdNode): MdNode[] => {
    if (node.type !== 'text' || !node.value?.includes('[[')) return [node]
    const value = node.value
    const out: MdNode[] = []
    let last = 0
    for (const l of indexLinksIn(value)) {
      if (!l.wiki) continue
      if (l.from > last) out.push({ type: 'text', value: value.slice(last, l.from) })
      out.push({
        type: 'link',
        url: MEMORY + 'w:' + encodeURIComponent(value.slice(l.start, l.end)),
        children: [{ type: 'text', value: l.wiki.shown }],
      })
      last = l.after
    }
    if (last < value.length) out.push({ type: 'text', value: value.slice(last) })
    return out
  }
  const walk = (node: MdNode) => {
    if (!node.children || node.type === 'link' || node.type === 'code' || node.type === 'inlineCode') return
    node.children = node.children.flatMap(split)
    node.children.forEach(walk)
  }
  return (tree: MdNode) => walk(tree)
}

/**
 * Memory links and plain web links survive; a relative link to a `.md` file is a link to that
 * memory; everything else (javascript:, file:, absolute paths) is dropped.
 */
function safeUrl(url: string): string {
  if (url.startsWith(MEMORY) || /^(https?:|mailto:)/i.test(url)) return url
  const path = url.split('#')[0]!
  const relative = !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('/') && !url.startsWith('~')
  return relative && /\.md$/i.test(path) ? MEMORY + 'm:' + encodeURIComponent(path) : ''
}

/**
 * The preview (react-markdown with GitHub-flavoured Markdown). Raw HTML is never rendered, and
 * links never navigate the app: a memory link opens the memory, a web link shows its address.
 */
export function MarkdownPreview({
  source,
  onOpenMemory,
}: {
  source: string
  onOpenMemory: (link: { target: string; wiki: boolean }) => void
}) {
  const components: Components = {
    a: ({ href, children }) => {
      if (href?.startsWith(MEMORY)) {
        const wiki = href.startsWith(MEMORY + 'w:')
        const target = decodeURIComponent(href.slice(MEMORY.length + 2))
        return (
          <button
            type="button"
            className="link-button wiki-link"
            title={`Open ${target}`}
            onClick={() => onOpenMemory({ target, wiki })}
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
      <Unrenderable key={source}>
        <ReactMarkdown
          remarkPlugins={[remarkGfm, remarkWikiLinks]}
          skipHtml
          urlTransform={safeUrl}
          components={components}
        >
          {source}
        </ReactMarkdown>
      </Unrenderable>
    </div>
  )
}

/**
 * Text the Markdown renderer cannot take (nesting thousands of levels deep overflows its stack: a
 * teammate's memory can hold anything) says so in the preview, instead of taking the view down.
 */
class Unrenderable extends Component<{ children: ReactNode }, { error?: string }> {
  override state: { error?: string } = {}

  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) }
  }

  override render() {
    if (this.state.error === undefined) return this.props.children
    return (
      <p className="warn-text" role="status">
        This text cannot be shown as Markdown ({this.state.error}). Write shows it as it is.
      </p>
    )
  }
}
