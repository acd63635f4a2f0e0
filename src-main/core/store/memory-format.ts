import type { MemoryFormat } from './frontmatter.js'

/** `auto`: the format of the newest memory that has a type (what the user's Claude Code writes now). */
export type MemoryFormatSetting = 'auto' | MemoryFormat

export function preferredMemoryFormat(
  newestFirst: readonly { format?: MemoryFormat }[],
  setting: MemoryFormatSetting = 'auto',
): MemoryFormat {
  if (setting !== 'auto') return setting
  return newestFirst.find((h) => h.format)?.format ?? 'flat'
}
