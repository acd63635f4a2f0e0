import { basename, dirname, join } from 'node:path'
import { nodeCrypto } from './lazy-crypto.js'

/** The most bytes of UTF-8 a file name may have on every supported file system. */
export const MAX_FILE_NAME_BYTES = 255

/**
 * The path of a hidden file beside `path` for it (an atomic write's temp file, a writer's lock):
 * `.<name><suffix>` while that fits in a file name. A file someone else named near the limit
 * (Claude Code writes any name the file system takes) would make it too long, and every update or
 * delete of that memory failed with ENAMETOOLONG: its sibling keeps the start of the name and a
 * hash of all of it, so each file still has one of its own.
 */
export function siblingPath(path: string, suffix: string): string {
  const name = basename(path)
  const plain = `.${name}${suffix}`
  if (Buffer.byteLength(plain) <= MAX_FILE_NAME_BYTES) return join(dirname(path), plain)
  const hash = `~${nodeCrypto().createHash('sha256').update(name).digest('hex').slice(0, 16)}`
  const room = MAX_FILE_NAME_BYTES - Buffer.byteLength(`.${hash}${suffix}`)
  const start = Buffer.from(name)
    .subarray(0, room)
    .toString('utf8')
    .replace(/\uFFFD+$/, '')
  return join(dirname(path), `.${start}${hash}${suffix}`)
}
