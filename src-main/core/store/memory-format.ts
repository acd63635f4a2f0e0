import type { MemoryFormat } from './frontmatter.js'

/** `auto`: what the user's Claude Code writes (its version, else the newest memory's format). */
export type MemoryFormatSetting = 'auto' | MemoryFormat

/** The provenance keys a client stamps under `metadata` when it writes a memory. */
export type MemoryStamp = 'node_type' | 'originSessionId' | 'modified'

/** How new memories are written: the frontmatter format, and the keys stamped on every write. */
export interface MemoryStyle {
  format: MemoryFormat
  stamps: MemoryStamp[]
  /** The client version the style follows, and where it was found. */
  client?: { version: string; source: 'transcript' | 'installed' }
}

/**
 * What each Claude Code version writes, as the real clients showed (test/fixtures/client-memory):
 * flat `type` up to 2.1.138; from 2.1.139 a kebab-case `name` with `metadata: {type}` and
 * `node_type` and `originSessionId` stamped; from 2.1.213 also `modified`, bumped on every update.
 */
const CLIENT_STYLES: { since: string; format: MemoryFormat; stamps: MemoryStamp[] }[] = [
  { since: '2.1.213', format: 'nested', stamps: ['node_type', 'originSessionId', 'modified'] },
  { since: '2.1.139', format: 'nested', stamps: ['node_type', 'originSessionId'] },
  { since: '0.0.0', format: 'flat', stamps: [] },
]

/** `a >= b` for dotted versions (`2.1.88` < `2.1.139`). */
export function versionAtLeast(a: string, b: string): boolean {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0)
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0)
  }
  return true
}

export function clientStyle(version: string): Omit<MemoryStyle, 'client'> {
  const s = CLIENT_STYLES.find((c) => versionAtLeast(version, c.since))!
  return { format: s.format, stamps: [...s.stamps] }
}

/**
 * The style new memories get. An explicit setting fixes the format (the client's stamps still
 * apply when it is known); `auto` follows the client version, else the newest memory's format.
 */
export function preferredMemoryStyle(
  newestFirst: readonly { format?: MemoryFormat }[],
  setting: MemoryFormatSetting = 'auto',
  client?: MemoryStyle['client'],
): MemoryStyle {
  const ofClient = client ? { ...clientStyle(client.version), client } : undefined
  if (setting !== 'auto')
    return { format: setting, stamps: ofClient?.stamps ?? [], ...(client ? { client } : {}) }
  if (ofClient) return ofClient
  return { format: newestFirst.find((h) => h.format)?.format ?? 'flat', stamps: [] }
}

/** The format part alone (the prompt and the editor's new-memory form). */
export function preferredMemoryFormat(
  newestFirst: readonly { format?: MemoryFormat }[],
  setting: MemoryFormatSetting = 'auto',
  client?: MemoryStyle['client'],
): MemoryFormat {
  return preferredMemoryStyle(newestFirst, setting, client).format
}
