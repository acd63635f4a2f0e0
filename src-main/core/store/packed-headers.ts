import type { MemoryFormat } from './frontmatter.js'
import type { MemoryHeader } from './memory-header.js'
import type { MemoryType } from './memory-types.js'

/**
 * Headers as they cross from a scan worker to the main thread: one string holding every field
 * back to back, their lengths (-1 = absent) and the mtimes and sizes. Structured clone copies a string or a
 * typed array almost for free but walks an object graph key by key; for a scan's 200 header
 * objects that walk cost the main thread more than reading half the files did.
 */
export interface PackedHeaders {
  text: string
  /** Five per header: filename, name, description, type, format. A missing header has filename -1. */
  lengths: Int32Array
  /** Two per header: mtimeMs, size (-1 = unknown). */
  stamps: Float64Array
}

const FIELDS = 5

export function packHeaders(headers: readonly (MemoryHeader | null)[]): PackedHeaders {
  const parts: string[] = []
  const lengths = new Int32Array(headers.length * FIELDS)
  const stamps = new Float64Array(headers.length * 2)
  headers.forEach((h, i) => {
    const fields = h
      ? [h.filename, h.name, h.description, h.type, h.format]
      : [undefined, undefined, undefined, undefined, undefined]
    fields.forEach((f, k) => {
      lengths[i * FIELDS + k] = f == null ? -1 : f.length
      if (f != null) parts.push(f)
    })
    stamps[i * 2] = h ? h.mtimeMs : 0
    stamps[i * 2 + 1] = h?.size ?? -1
  })
  return { text: parts.join(''), lengths, stamps }
}

/** The headers packHeaders was given, with each `filePath` rebuilt by `pathOf`. */
export function unpackHeaders(
  packed: PackedHeaders,
  pathOf: (filename: string) => string,
): (MemoryHeader | null)[] {
  const { text, lengths, stamps } = packed
  const count = stamps.length / 2
  const out: (MemoryHeader | null)[] = new Array(count)
  let pos = 0
  const take = (len: number): string | undefined => {
    if (len < 0) return undefined
    pos += len
    return text.slice(pos - len, pos)
  }
  for (let i = 0; i < count; i++) {
    const at = i * FIELDS
    const filename = take(lengths[at] as number)
    const name = take(lengths[at + 1] as number)
    const description = take(lengths[at + 2] as number) ?? null
    const type = take(lengths[at + 3] as number) as MemoryType | undefined
    const format = take(lengths[at + 4] as number) as MemoryFormat | undefined
    const size = stamps[i * 2 + 1] as number
    out[i] =
      filename === undefined
        ? null
        : {
            filename,
            filePath: pathOf(filename),
            mtimeMs: stamps[i * 2] as number,
            size: size >= 0 ? size : undefined,
            name,
            description,
            type,
            format,
          }
  }
  return out
}
