import { open } from 'node:fs/promises'
import { parseTranscriptLines, type TranscriptEntry } from './transcript.js'

/**
 * Follows one growing JSONL file: each read parses only the bytes appended since the last,
 * keeping a partial last line for the next read. A file that shrank is re-read from the start.
 */
export class TranscriptTail {
  private offset = 0
  private remainder = ''
  private lineNo = 1
  readonly entries: TranscriptEntry[] = []
  malformedLines: number[] = []

  constructor(readonly path: string) {}

  /** Returns the entries appended since the previous call. */
  async readNew(): Promise<TranscriptEntry[]> {
    const fh = await open(this.path, 'r')
    try {
      const { size } = await fh.stat()
      if (size < this.offset) this.reset()
      if (size === this.offset) return []
      const buf = Buffer.alloc(size - this.offset)
      const { bytesRead } = await fh.read(buf, 0, buf.length, this.offset)
      this.offset += bytesRead
      const text = this.remainder + buf.subarray(0, bytesRead).toString('utf8')
      const cut = text.lastIndexOf('\n')
      const complete = cut >= 0 ? text.slice(0, cut) : ''
      this.remainder = cut >= 0 ? text.slice(cut + 1) : text
      if (!complete) return []
      const parsed = parseTranscriptLines(complete, this.lineNo)
      this.lineNo += complete.split('\n').length
      this.malformedLines.push(...parsed.malformedLines)
      this.entries.push(...parsed.entries)
      return parsed.entries
    } finally {
      await fh.close()
    }
  }

  private reset() {
    this.offset = 0
    this.remainder = ''
    this.lineNo = 1
    this.entries.length = 0
    this.malformedLines = []
  }
}
