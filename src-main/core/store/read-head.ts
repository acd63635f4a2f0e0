import { close, fstat, open, read } from 'node:fs'
import { promisify } from 'node:util'

const openFd = promisify(open)
const fstatFd = promisify(fstat)
const closeFd = promisify(close)
const readFd = (fd: number, buf: Buffer, pos: number) =>
  new Promise<number>((resolve, reject) =>
    read(fd, buf, 0, buf.length, pos, (e, n) => (e ? reject(e) : resolve(n))),
  )

const CHUNK = 4096
const MAX_HEAD_BYTES = 64 * 1024

function countNewlines(buf: Buffer, end: number): number {
  let n = 0
  for (let i = buf.indexOf(10); i !== -1 && i < end; i = buf.indexOf(10, i + 1)) n++
  return n
}

/**
 * Reads at most the first `maxLines` lines of a file and its mtime through one open descriptor:
 * the fstat rides on the fd we already hold, so there is no separate stat pass. Plain fds, not
 * FileHandle objects: this runs once per memory file on every scan.
 */
export async function readHead(
  path: string,
  maxLines: number,
): Promise<{ content: string; mtimeMs: number }> {
  const fd = await openFd(path, 'r')
  try {
    const st = await fstatFd(fd)
    if (!st.isFile()) throw new Error(`not a regular file: ${path}`)
    let buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, st.size)))
    let total = 0
    let newlines = 0
    while (total < MAX_HEAD_BYTES) {
      if (total === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_HEAD_BYTES))
        buf.copy(bigger, 0, 0, total)
        buf = bigger
      }
      const n = await readFd(fd, buf.subarray(total), total)
      if (n === 0) break
      newlines += countNewlines(buf.subarray(total, total + n), n)
      total += n
      if (newlines >= maxLines || total >= st.size) break
    }
    const text = buf.toString('utf8', 0, total)
    if (newlines < maxLines) return { content: text, mtimeMs: st.mtimeMs }
    let cut = -1
    for (let i = 0; i < maxLines; i++) cut = text.indexOf('\n', cut + 1)
    return { content: text.slice(0, cut), mtimeMs: st.mtimeMs }
  } finally {
    await closeFd(fd)
  }
}
