export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const
export type MemoryType = (typeof MEMORY_TYPES)[number]

/** Unknown or missing types degrade to undefined: the file stays usable. Case-sensitive, as Claude Code. */
export function parseMemoryType(raw: unknown): MemoryType | undefined {
  if (typeof raw !== 'string') return undefined
  const t = raw.trim()
  return (MEMORY_TYPES as readonly string[]).includes(t) ? (t as MemoryType) : undefined
}
