import type { MemoryFormat } from './frontmatter.js'
import type { MemoryHeader } from './memory-header.js'
import type { MemoryType } from './memory-types.js'

/**
 * Headers as they cross from a scan worker to the main thread: one string holding every field
 * back to back, their lengths (-1 = absent) and the mtimes. Structured clone copies a string or a
 * typed array almost for free but walks an object graph key by key; for a scan's 200 header
 * objects that walk cost the main thread more than reading half the files did.
 */
export interface PackedHeaders {
  text: string
  /** Five per header: filename, name, description, type, format. A missing header has filename -1. */
  lengths: Int32Array
  mtimes: Float64Array
}

const FIELDS = 5

export function packHeaders(headers: readonly (MemoryHeader | null)[]): PackedHeaders {
  const parts: string[] = []
  const lengths = new Int32Array(headers.length * FIELDS)
  const mtimes = new Float64Array(headers.length)
  headers.forEach((h, i) => {
    const fields = h
      ? [h.filename, h.name, h.description, h.type, h.format]
      : [undefined, undefined, undefined, undefined, undefined]
    fields.forEach((f, k) => {
      lengths[i * FIELDS + k] = f == null ? -1 : f.length
      if (f != null) parts.push(f)
    })
    mtimes[i] = h ? h.mtimeMs : 0
  })
  return { text: parts.join(''), lengths, mtimes }
}

/** The headers packHeaders was given, with each `filePath` rebuilt by `pathOf`. */
export function unpackHeaders(
  packed: PackedHeaders,
  pathOf: (filename: string) => string,
): (MemoryHeader | null)[] {
  const { text, lengths, mtimes } = packed
  const out: (MemoryHeader | null)[] = new Array(mtimes.length)
  let pos = 0
  const take = (len: number): string | undefined => {
    if (len < 0) return undefined
    pos += len
    return text.slice(pos - len, pos)
  }
  for (let i = 0; i < mtimes.length; i++) {
    const at = i * FIELDS
    const filename = take(lengths[at] as number)
    const name = take(lengths[at + 1] as number)
    const description = take(lengths[at + 2] as number) ?? null
    const type = take(lengths[at + 3] as number) as MemoryType | undefined
    const format = take(lengths[at + 4] as number) as MemoryFormat | undefined
    out[i] =
      filename === undefined
        ? null
        : {
            filename,
            filePath: pathOf(filename),
            mtimeMs: mtimes[i] as number,
            name,
            description,
            type,
            format,
          }
  }
  return out
}
