import matter from 'gray-matter'
import { type MemoryType, parseMemoryType } from './memory-types.js'

export interface ParsedMemory {
  data: Record<string, unknown>
  name?: string
  description: string | null
  type?: MemoryType
  body: string
}

function oneLine(v: unknown): string | undefined {
  if (typeof v === 'string') return v.replace(/\s+/g, ' ').trim() || undefined
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (v instanceof Date) return v.toISOString()
  return undefined
}

// A frontmatter line we can read without a YAML parser: `key: plain value` whose value YAML
// would also read as a plain string (no quotes, flow/anchor/tag/block indicators, dates or numbers).
const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/
const NEEDS_YAML =
  /^(?:["'[\]{}&*!|>%@`#]|-\s|\?\s|[-+]?(?:\d|\.\d)|~$|null$|true$|false$|yes$|no$|on$|off$)/i

/** Fast path for the flat frontmatter Claude Code writes; undefined means "let YAML decide". */
function parseSimpleFrontmatter(text: string): { data: Record<string, unknown>; body: string } | undefined {
  if (!text.startsWith('---\n') && !text.startsWith('---\r\n')) return undefined
  const lines = text.split('\n')
  const data: Record<string, unknown> = {}
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '')
    if (line === '---') return { data, body: lines.slice(i + 1).join('\n') }
    if (line.trim() === '') continue
    const m = SIMPLE_LINE.exec(line)
    if (!m) return undefined
    const raw = (m[2] ?? '').replace(/\s+#.*$/, '').trim()
    if (raw === '') return undefined // null / nested mapping: YAML semantics
    if (NEEDS_YAML.test(raw) || raw.includes(': ') || raw.endsWith(':')) return undefined
    data[m[1] as string] = raw
  }
  return undefined // no closing fence: let gray-matter apply its own rule
}

/**
 * Parses a memory file (or its first lines). Bad YAML never throws: the frontmatter is
 * treated as absent and the whole text becomes the body.
 */
export function parseMemoryFile(text: string): ParsedMemory {
  return toParsed(parseSimpleFrontmatter(text) ?? parseWithGrayMatter(text))
}

/** The YAML path (gray-matter), also the reference the fast path is tested against. */
export function parseWithGrayMatter(text: string): { data: Record<string, unknown>; body: string } {
  try {
    // Passing options disables gray-matter's unbounded content cache.
    const parsed = matter(text, { excerpt: false })
    const data =
      parsed.data && typeof parsed.data === 'object' ? (parsed.data as Record<string, unknown>) : {}
    return { data, body: parsed.content }
  } catch {
    return { data: {}, body: text }
  }
}

export function toParsed({ data, body }: { data: Record<string, unknown>; body: string }): ParsedMemory {
  return {
    data,
    name: oneLine(data.name),
    description: oneLine(data.description) ?? null,
    type: parseMemoryType(data.type),
    body: body.replace(/^\r?\n/, ''),
  }
}

// Safe unquoted YAML: no `: `, ` #`, leading indicators or trailing space.
const PLAIN_SCALAR = /^[A-Za-z0-9_][A-Za-z0-9_ .,()/+'=@-]*$/

function yamlScalar(v: unknown): string {
  if (typeof v === 'string') return PLAIN_SCALAR.test(v) && !/\s$/.test(v) ? v : JSON.stringify(v)
  return JSON.stringify(v) ?? 'null'
}

export interface MemoryFields {
  name: string
  description: string
  type?: MemoryType
  body: string
}

/** Serializes a memory with `name/description/type` first; other existing keys are kept after them. */
export function serializeMemoryFile(fields: MemoryFields, extra: Record<string, unknown> = {}): string {
  const lines = ['---', `name: ${yamlScalar(fields.name.trim())}`]
  lines.push(`description: ${yamlScalar(fields.description.replace(/\s+/g, ' ').trim())}`)
  if (fields.type) lines.push(`type: ${fields.type}`)
  for (const [k, v] of Object.entries(extra)) {
    if (k === 'name' || k === 'description' || k === 'type' || v === undefined) continue
    if (!/^[A-Za-z0-9_-]+$/.test(k)) continue
    lines.push(`${k}: ${yamlScalar(v instanceof Date ? v.toISOString() : v)}`)
  }
  lines.push('---', '', '')
  const body = fields.body.replace(/^\n+/, '')
  return lines.join('\n') + body + (body.endsWith('\n') || body === '' ? '' : '\n')
}
