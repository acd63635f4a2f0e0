import { closeSync, readSync } from 'node:fs'
import { openRegularSync } from './regular-file.js'
import { decodeText } from './text-encoding.js'

const CHUNK = 4096
const MAX_HEAD_BYTES = 64 * 1024

export interface FileHead {
  content: string
  mtimeMs: number
  /** The whole file's size in bytes (with mtimeMs, what a cache of the file is keyed by). */
  size: number
}

function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0
  for (let i = buf.indexOf(10, from); i !== -1 && i < to; i = buf.indexOf(10, i + 1)) n++
  return n
}

/** The first `maxLines` lines of buf[0, total), without the newline that ends the last of them. */
function headText(buf: Buffer, total: number, maxLines: number): string {
  const text = decodeText(buf, total)
  let cut = -1
  for (let i = 0; i < maxLines; i++) {
    cut = text.indexOf('\n', cut + 1)
    if (cut === -1) return text
  }
  return text.slice(0, cut)
}

function grow(buf: Buffer, total: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_HEAD_BYTES))
  buf.copy(bigger, 0, 0, total)
  return bigger
}

let scratch: Buffer = Buffer.allocUnsafe(CHUNK)

/**
 * Reads at most the first `maxLines` lines of a file and its mtime through one open descriptor
 * (the fstat rides on the fd, so there is no separate stat pass). Blocking, with one reused
 * buffer: it runs in the scan worker thread, never on the main thread, because a bare syscall
 * costs microseconds and a thread-pool round trip several times that. Async callers use
 * `readHeads` or `readHeadsOrErrors` in scan.ts.
 */
export function readHeadSync(path: string, maxLines: number): FileHead {
  // A directory, FIFO or device named like a memory: a file-system failure like any other.
  const { fd, st } = openRegularSync(path)
  try {
    let total = 0
    let newlines = 0
    while (total < MAX_HEAD_BYTES) {
      if (total === scratch.length) scratch = grow(scratch, total)
      const n = readSync(fd, scratch, total, scratch.length - total, total)
      if (n === 0) break
      total += n
      // Most memory files fit in the first read; only a longer one needs its lines counted.
      if (total >= st.size) break
      newlines += countNewlines(scratch, total - n, total)
      if (newlines >= maxLines) break
    }
    return { content: headText(scratch, total, maxLines), mtimeMs: st.mtimeMs, size: st.size }
  } finally {
    closeSync(fd)
  }
}
