import { readAppended } from '../store/appended-lines.js'
import { SerialQueue } from '../store/serial-queue.js'
import { parseTranscriptLines, type TranscriptEntry } from './transcript.js'

/**
 * Follows one growing JSONL file: each read parses only the bytes appended since the last,
 * leaving a partial last line for the next read. A file that shrank is re-read from the start.
 */
export class TranscriptTail {
  private offset = 0
  private lineNo = 1
  readonly entries: TranscriptEntry[] = []
  malformedLines: number[] = []
  /** A second caller reads after the read under way, not from the same offset. */
  private readonly reads = new SerialQueue()

  constructor(readonly path: string) {}

  /** Returns the entries appended since the previous call (calls at once are read one after another). */
  readNew(): Promise<TranscriptEntry[]> {
    return this.reads.run(() => this.read())
  }

  private async read(): Promise<TranscriptEntry[]> {
    const got = await readAppended(this.path, { offset: this.offset })
    if (!got) return []
    if (got.restarted) this.reset()
    this.offset = got.end
    if (!got.text) return []
    const complete = got.text.slice(0, -1)
    const parsed = parseTranscriptLines(complete, this.lineNo)
    this.lineNo += complete.split('\n').length
    this.malformedLines.push(...parsed.malformedLines)
    this.entries.push(...parsed.entries)
    return parsed.entries
  }

  private reset() {
    this.offset = 0
    this.lineNo = 1
    this.entries.length = 0
    this.malformedLines = []
  }
}
