import matter from 'gray-matter'
import { type MemoryType, parseMemoryType } from './memory-types.js'

export interface ParsedMemory {
  data: Record<string, unknown>
  name?: string
  description: string | null
  type?: MemoryType
  body: string
}

// Whitespace other than single spaces: only then does oneLine need its regex replace.
const UNUSUAL_SPACE = /\s\s|[^\S ]/

function oneLine(v: unknown): string | undefined {
  if (typeof v === 'string') return (UNUSUAL_SPACE.test(v) ? v.replace(/\s+/g, ' ') : v).trim() || undefined
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (v instanceof Date) return v.toISOString()
  return undefined
}

// A frontmatter line we can read without a YAML parser: `key: plain value` whose value YAML
// would also read as a plain string (no quotes, flow/anchor/tag/block indicators, dates or numbers).
const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/
const INDICATOR_START = /^(?:["'[\]{}&*!|>%@`#]|-\s|\?\s|[-+]?(?:\d|\.\d))/
const YAML_WORDS = new Set(['~', 'null', 'true', 'false', 'yes', 'no', 'on', 'off'])

/** Would YAML read this (trimmed, non-empty) plain value as something other than that string? */
function needsYaml(raw: string): boolean {
  if (raw.length <= 5 && YAML_WORDS.has(raw.toLowerCase())) return true
  return INDICATOR_START.test(raw) || raw.includes(': ') || raw.endsWith(':')
}

/**
 * Fast path for the flat frontmatter Claude Code writes; undefined means "let YAML decide".
 * Returns the fields and where the body starts, so a header-only caller never builds the body.
 */
function parseSimpleFrontmatter(
  text: string,
): { data: Record<string, unknown>; bodyStart: number } | undefined {
  let pos: number
  if (text.startsWith('---\n')) pos = 4
  else if (text.startsWith('---\r\n')) pos = 5
  else return undefined
  const data: Record<string, unknown> = {}
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos)
    const end = nl === -1 ? text.length : nl
    const next = nl === -1 ? text.length + 1 : nl + 1
    const line =
      text.charCodeAt(end - 1) === 13 && end > pos ? text.slice(pos, end - 1) : text.slice(pos, end)
    pos = next
    if (line === '---') return { data, bodyStart: Math.min(next, text.length) }
    if (line.trim() === '') continue
    const m = SIMPLE_LINE.exec(line)
    if (!m) return undefined
    const value = m[2] ?? ''
    const raw = (value.includes('#') ? value.replace(/\s+#.*$/, '') : value).trim()
    if (raw === '') return undefined // null / nested mapping: YAML semantics
    if (needsYaml(raw)) return undefined
    data[m[1] as string] = raw
  }
  return undefined // no closing fence: let gray-matter apply its own rule
}

/**
 * Parses a memory file (or its first lines). Bad YAML never throws: the frontmatter is
 * treated as absent and the whole text becomes the body.
 */
export function parseMemoryFile(text: string): ParsedMemory {
  const simple = parseSimpleFrontmatter(text)
  return toParsed(
    simple ? { data: simple.data, body: text.slice(simple.bodyStart) } : parseWithGrayMatter(text),
  )
}

export type MemoryHeaderFields = Pick<ParsedMemory, 'name' | 'description' | 'type'>

/** Just `name/description/type`, as parseMemoryFile would give them, without building the body. */
export function parseMemoryHeaderFields(text: string): MemoryHeaderFields {
  const data = parseSimpleFrontmatter(text)?.data ?? parseWithGrayMatter(text).data
  return headerFields(data)
}

function headerFields(data: Record<string, unknown>): MemoryHeaderFields {
  return {
    name: oneLine(data.name),
    description: oneLine(data.description) ?? null,
    type: parseMemoryType(data.type),
  }
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
  return { data, ...headerFields(data), body: body.replace(/^\r?\n/, '') }
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
