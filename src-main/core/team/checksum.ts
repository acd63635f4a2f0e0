import { createHash } from 'node:crypto'

/** Entry checksum as the team API defines it: "sha256:" + hex of the UTF-8 content. */
export function entryChecksum(content: string): string {
  return 'sha256:' + createHash('sha256').update(content, 'utf8').digest('hex')
}
