import { rethrowUnless } from '../../../src-shared/errors.js'
import { createRequire } from 'node:module'
import type * as YamlLibrary from 'yaml'
import { type MemoryType, parseMemoryType } from './memory-types.js'

type YamlModule = typeof YamlLibrary
let yaml: YamlModule | undefined
/**
 * The YAML library loads on first use: most headers Claude Code writes take the fast path below,
 * and a command that reads only those (`memdir list`, the prompt hook) never pays its start-up.
 */
export function yamlLibrary(): YamlModule {
  return (yaml ??= createRequire(import.meta.url)('yaml') as YamlModule)
}

/**
 * How a memory names its type. `flat`: `type: user` (Claude Code until 2.1.x); `nested`:
 * `metadata: { type: user }` with a kebab-case `name` (newer Claude Code).
 */
export type MemoryFormat = 'flat' | 'nested'

export interface ParsedMemory {
  data: Record<string, unknown>
  name?: string
  description: string | null
  type?: MemoryType
  /** Where the file keeps its type; undefined when it has none. */
  format?: MemoryFormat
  body: string
}

// Whitespace other than single spaces: only then does oneLine need its regex replace.
const UNUSUAL_SPACE = /\s\s|[^\S ]/

/**
 * A description as Claude Code reads it: a string, kept as written (spaces, tabs and the lines of a
 * block scalar), without the newline a block scalar ends with; anything else (a number, a list) is none.
 */
function asWritten(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const text = v.replace(/\n+$/, '')
  return text.trim() ? text : undefined
}

function oneLine(v: unknown): string | undefined {
  if (typeof v === 'string') return (UNUSUAL_SPACE.test(v) ? v.replace(/\s+/g, ' ') : v).trim() || undefined
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return undefined
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The frontmatter block, as Claude Code finds it: an optional byte order mark, `---` on the first
 * line (spaces or tabs may follow it), up to the next line that is `---` (the same). An unclosed
 * block is no frontmatter: the whole text is the body.
 */
export function splitFrontmatter(
  text: string,
): { yaml: string; yamlStart: number; bodyStart: number } | undefined {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text)
  if (!open) return undefined
  let pos = open[0].length
  const start = pos
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos)
    const end = nl === -1 ? text.length : nl
    const line = text.slice(pos, text.charCodeAt(end - 1) === 13 ? end - 1 : end)
    if (line.trimEnd() === '---')
      return { yaml: text.slice(start, pos), yamlStart: start, bodyStart: Math.min(end + 1, text.length) }
    if (nl === -1) return undefined
    pos = nl + 1
  }
  return undefined
}

// A frontmatter line read without a YAML parser: `key: plain value` that YAML's core schema would
// also read as that string (no quotes, flow/anchor/tag/block indicators, numbers, null or booleans).
// The value starts with what the spaces before it cannot match: with `[ \t]+(.*)` a line of many
// spaces and a stray \r took quadratic time to refuse (a teammate's file can hold one).
const SIMPLE_LINE = /^( *)([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+([^ \t\r\u2028\u2029].*)?)?$/
const INDICATOR_START = /^(?:["'[\]{}&*!|>%@`#]|-\s|\?\s)/
const YAML_WORDS = new Set(['~', 'null', 'true', 'false'])
// YAML 1.2 core schema numbers; a value that merely starts with a digit ("2026-03-05", "3 tips") is a string.
const CORE_NUMBER =
  /^(?:[-+]?\d+|0o[0-7]+|0x[\da-fA-F]+|[-+]?(?:\.\d+|\d+(?:\.\d*)?)(?:[eE][-+]?\d+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/
const DOUBLE_QUOTED = /^"([^"\\]*)"$/
const SINGLE_QUOTED = /^'((?:[^']|'')*)'$/

/** Would YAML read this (trimmed, non-empty) plain value as something other than that string? */
function needsYaml(raw: string): boolean {
  if (raw.length <= 5 && YAML_WORDS.has(raw.toLowerCase())) return true
  if (CORE_NUMBER.test(raw) || (raw.startsWith('.') && raw.length > 1 && raw[1] !== ' ')) return true
  return INDICATOR_START.test(raw) || raw.endsWith(':') || raw.includes('\t')
}

/**
 * A top-level value as the fast path reads it: quoted values without escapes, plain values.
 * A plain value with `: ` inside fails YAML, and the quoting retry reads it as written: the same
 * string (the caller checks that no comment in the block would be read differently by that retry).
 */
function simpleValue(raw: string): string | undefined {
  const dq = DOUBLE_QUOTED.exec(raw)
  if (dq) return dq[1]
  const sq = SINGLE_QUOTED.exec(raw)
  if (sq) return sq[1]!.replaceAll("''", "'")
  return needsYaml(raw) ? undefined : raw
}

/**
 * Fast path for the frontmatter Claude Code writes (flat keys, and one nested `metadata:` map);
 * undefined means "let YAML decide". A scan reads hundreds of headers: no parser for the common case.
 */
export function parseSimpleFrontmatter(yaml: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {}
  let nested: { key: string; map: Record<string, unknown>; indent: number } | undefined
  let colonValue = false
  let comment = false
  for (const rawLine of yaml.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine
    if (line.trim() === '') continue
    const m = SIMPLE_LINE.exec(line)
    if (!m) return undefined
    const indent = m[1]!.length
    const value = m[3] ?? ''
    if (value.includes('#')) comment = true
    const raw = (value.includes('#') ? value.replace(/[ \t]#[\s\S]*$/, '') : value).trim()
    if (indent > 0) {
      if (
        !nested ||
        (nested.indent && indent !== nested.indent) ||
        raw === '' ||
        needsYaml(raw) ||
        raw.includes(': ')
      )
        return undefined
      nested.indent = indent
      nested.map[m[2]!] = raw
      continue
    }
    if (nested && !nested.indent) return undefined // `key:` with nothing under it: YAML null
    nested = undefined
    if (raw === '') {
      nested = { key: m[2]!, map: {}, indent: 0 }
      data[m[2]!] = nested.map
      continue
    }
    const v = simpleValue(raw)
    if (v === undefined) return undefined
    if (v === raw && raw.includes(': ')) colonValue = true
    data[m[2]!] = v
  }
  if (nested && !nested.indent) return undefined
  // With a `key: a: b` value YAML fails and the retry quotes every value, comments included.
  if (colonValue && comment) return undefined
  return data
}

/** Quotes the value of every `key: value` line that is not quoted already (the retry for bad YAML). */
function quoteValues(yaml: string): string {
  return yaml
    .split('\n')
    .map((line) => {
      const m = /^(\s*(?:- )?[^\s:#'"][^:]*?:[ \t]+)([^ \t\r][^\r]*?)?(\r?)$/.exec(line)
      if (!m) return line
      const value = (m[2] ?? '').trim()
      if (value === '' || /^["'|>]/.test(value)) return line
      return `${m[1]}${JSON.stringify(value)}${m[3]}`
    })
    .join('\n')
}

/** Tabs that indent a line, as two spaces each: YAML forbids them, Claude Code reads past them. */
const indentTabsAsSpaces = (yaml: string) => yaml.replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length))

// YAML 1.2 core schema: dates stay strings ("2026-03-05"), yes/no stay words.
const YAML_OPTIONS = { schema: 'core', uniqueKeys: false, prettyErrors: false } as const

/**
 * The most frontmatter handed to the YAML parser. A memory's is a few lines; past this it is not
 * read (the file is listed without its header): a parser that builds one error per bad token took
 * seconds over a 300 KB block of quotes, in every scan, Health check and `memdir doctor`.
 */
export const MAX_FRONTMATTER_CHARS = 16 * 1024

function yamlMapping(yaml: string): Record<string, unknown> | undefined {
  if (yaml.length > MAX_FRONTMATTER_CHARS) return undefined
  try {
    const v = yamlLibrary().parse(yaml, YAML_OPTIONS) as unknown
    return isRecord(v) ? v : v == null ? {} : undefined
  } catch (e) {
    // Bad YAML never fails a scan: the file is listed without its header (SPEC §3).
    rethrowUnless(isYamlFailure(e), e)
    return undefined
  }
}

/**
 * What the YAML parser throws for text it will not read: a syntax error, and, from a well-formed
 * document, too many aliases (a "billion laughs" block, ReferenceError) or a nesting deeper than
 * the stack (RangeError). A teammate's file can hold any of them.
 */
export function isYamlFailure(e: unknown): e is Error {
  return e instanceof yamlLibrary().YAMLError || e instanceof ReferenceError || e instanceof RangeError
}

/**
 * The frontmatter as Claude Code reads it: YAML, and when YAML fails on unquoted values with
 * special characters (`Deploy: never on Fridays`, `*`, `@`, `{`), the same with those values
 * quoted. Undefined: no frontmatter, or YAML that even the retry cannot read.
 */
export function parseFrontmatterData(
  text: string,
  opts: { fastPath?: boolean } = {},
): { data: Record<string, unknown>; bodyStart: number } | undefined {
  const block = splitFrontmatter(text)
  if (!block) return undefined
  const data =
    (opts.fastPath === false ? undefined : parseSimpleFrontmatter(block.yaml)) ??
    yamlMapping(block.yaml) ??
    yamlMapping(quoteValues(block.yaml)) ??
    (/^\t/m.test(block.yaml) ? yamlMapping(quoteValues(indentTabsAsSpaces(block.yaml))) : undefined)
  return data ? { data, bodyStart: block.bodyStart } : undefined
}

/**
 * Why a file's frontmatter block cannot be read (the YAML parser's message and the file's line),
 * or undefined when it can, or when there is no block at all.
 */
export function frontmatterProblem(text: string): { message: string; line: number } | undefined {
  const block = splitFrontmatter(text)
  if (!block || parseFrontmatterData(text)) return undefined
  const firstLine = text.slice(0, block.yamlStart).split('\n').length
  if (block.yaml.length > MAX_FRONTMATTER_CHARS)
    return {
      message: `the frontmatter is ${block.yaml.length.toLocaleString('en-US')} characters long; at most ${MAX_FRONTMATTER_CHARS.toLocaleString('en-US')} are read`,
      line: firstLine,
    }
  try {
    yamlLibrary().parse(block.yaml, YAML_OPTIONS)
  } catch (e) {
    if (!isYamlFailure(e)) throw e
    // Errors come without line numbers (prettyErrors off): the line is counted from the offset, and
    // an error at the block's end (a quote never closed) is put on its last line.
    const offset = e instanceof yamlLibrary().YAMLError ? (e.pos?.[0] ?? 0) : 0
    const lines = block.yaml.replace(/\n$/, '').split('\n').length
    const at = Math.min(block.yaml.slice(0, offset).split('\n').length, lines)
    return {
      message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, ''),
      line: firstLine + at - 1,
    }
  }
  return { message: 'the frontmatter is not a list of `key: value` lines', line: firstLine }
}

/**
 * Parses a memory file (or its first lines). Bad YAML never throws: the frontmatter is
 * treated as absent and the whole text becomes the body.
 */
export function parseMemoryFile(text: string, opts: { fastPath?: boolean } = {}): ParsedMemory {
  const fm = parseFrontmatterData(text, opts)
  const data = fm?.data ?? {}
  const body = fm ? text.slice(fm.bodyStart) : text
  return { data, ...headerFields(data), body: body.replace(/^\r?\n/, '') }
}

/** The text after the frontmatter block, without parsing it (for search and ranking). */
export function bodyOf(text: string): string {
  const block = splitFrontmatter(text)
  return (block ? text.slice(block.bodyStart) : text).replace(/^\r?\n/, '')
}

export type MemoryHeaderFields = Pick<ParsedMemory, 'name' | 'description' | 'type' | 'format'>

/** Just `name/description/type`, as parseMemoryFile would give them, without building the body. */
export function parseMemoryHeaderFields(text: string): MemoryHeaderFields {
  return headerFields(parseFrontmatterData(text)?.data ?? {})
}

/** `metadata.type` wins over a top-level `type`, as the newest client reads them. */
function headerFields(data: Record<string, unknown>): MemoryHeaderFields {
  const flat = parseMemoryType(data.type)
  const meta = isRecord(data.metadata) ? data.metadata : undefined
  const nested = meta ? parseMemoryType(meta.type) : undefined
  return {
    name: oneLine(data.name),
    description: asWritten(data.description) ?? null,
    type: nested ?? flat,
    format: nested ? 'nested' : flat ? 'flat' : meta?.type !== undefined ? 'nested' : undefined,
  }
}

/** The slug newer Claude Code writes as `name`: lower-case words joined by `-`. */
export function kebabSlug(name: string): string {
  return kebabWords(name) || 'memory'
}

/** A title's Latin letters and digits, lower-case, joined by `-` (empty when it has none). */
export function kebabWords(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
}

export interface MemoryFields {
  name: string
  description: string
  type?: MemoryType
  body: string
}

/**
 * The frontmatter a memory is written with: `name/description/type` first (the type flat or under
 * `metadata`, as `format` says), then the other existing keys.
 */
export function frontmatterData(
  fields: MemoryFields,
  extra: Record<string, unknown> = {},
  format: MemoryFormat = 'flat',
): Record<string, unknown> {
  const type = parseMemoryType(fields.type)
  // A name or description the update leaves as it reads stays as its author wrote it: newer Claude
  // Code's kebab-case is for names Memdir writes, not for someone's "Deploy freeze" it only shows,
  // and a description's own spacing or block lines are theirs.
  const keepsName = extra.name !== undefined && oneLine(extra.name) === fields.name
  const keepsDescription =
    extra.description !== undefined && asWritten(extra.description) === fields.description
  const doc: Record<string, unknown> = {
    name: keepsName ? extra.name : format === 'nested' ? kebabSlug(fields.name) : fields.name.trim(),
    description: keepsDescription ? extra.description : fields.description.replace(/\s+/g, ' ').trim(),
  }
  // A type the reader cannot use ("Feedback") shows as none in the editor: an update that sets none
  // leaves it as written (Health offers its fix), where a type the update replaces or clears goes.
  const unreadable = (v: unknown) => v !== undefined && parseMemoryType(v) === undefined
  if (type && format === 'flat') doc.type = type
  else if (!type && unreadable(extra.type)) doc.type = extra.type
  const meta = isRecord(extra.metadata) ? { ...extra.metadata } : {}
  if (type && format === 'nested') meta.type = type
  else if (type || !unreadable(meta.type)) delete meta.type
  // An empty `metadata: {}` says nothing a reader uses: written only where there was one.
  if (Object.keys(meta).length || isRecord(extra.metadata)) doc.metadata = meta
  for (const [k, v] of Object.entries(extra)) {
    if (k === 'name' || k === 'description' || k === 'type' || k === 'metadata' || v === undefined) continue
    doc[k] = v
  }
  return doc
}

/** A memory's body as written after its frontmatter: no leading blank lines, one final newline. */
export function memoryBodyText(body: string): string {
  const text = body.replace(/^\n+/, '')
  return text.endsWith('\n') || text === '' ? text : text + '\n'
}

/**
 * Serializes a memory (frontmatterData, then the body). Written by a YAML library: a value can
 * never start a field of its own.
 */
export function serializeMemoryFile(
  fields: MemoryFields,
  extra: Record<string, unknown> = {},
  format: MemoryFormat = 'flat',
): string {
  const text = yamlLibrary().stringify(frontmatterData(fields, extra, format), { lineWidth: 0 })
  return `---\n${text}---\n\n${memoryBodyText(fields.body)}`
}
