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

/**
 * Parses a memory file (or its first lines). Bad YAML never throws: the frontmatter is
 * treated as absent and the whole text becomes the body.
 */
export function parseMemoryFile(text: string): ParsedMemory {
  let data: Record<string, unknown> = {}
  let body = text
  try {
    // Passing options disables gray-matter's unbounded content cache.
    const parsed = matter(text, { excerpt: false })
    data = parsed.data && typeof parsed.data === 'object' ? (parsed.data as Record<string, unknown>) : {}
    body = parsed.content
  } catch {
    data = {}
  }
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
