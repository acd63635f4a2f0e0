import { open } from 'node:fs/promises'

const CHUNK = 4096
const MAX_HEAD_BYTES = 64 * 1024

/**
 * Reads at most the first `maxLines` lines of a file and its mtime through one open handle:
 * the fstat rides on the descriptor we already hold, so there is no separate stat pass.
 */
export async function readHead(
  path: string,
  maxLines: number,
): Promise<{ content: string; mtimeMs: number }> {
  const fh = await open(path, 'r')
  try {
    const st = await fh.stat()
    if (!st.isFile()) throw new Error(`not a regular file: ${path}`)
    const chunks: Buffer[] = []
    let total = 0
    let newlines = 0
    while (total < MAX_HEAD_BYTES) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, MAX_HEAD_BYTES - total))
      const { bytesRead } = await fh.read(buf, 0, buf.length, total)
      if (bytesRead === 0) break
      const chunk = buf.subarray(0, bytesRead)
      chunks.push(chunk)
      total += bytesRead
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++
      if (newlines >= maxLines) break
      if (bytesRead < buf.length) break
    }
    const text = Buffer.concat(chunks).toString('utf8')
    const lines = text.split('\n')
    return { content: lines.slice(0, maxLines).join('\n'), mtimeMs: st.mtimeMs }
  } finally {
    await fh.close()
  }
}
