/** MEMORY.md pointer lines: `- [Title](file.md) — one-line hook` (SPEC §10). */

export const MAX_INDEX_LINE_CHARS = 150

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export function formatIndexLine(title: string, relPath: string, hook: string): string {
  const cleanTitle =
    title
      .replace(/[[\]\n]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || relPath
  const head = `- [${cleanTitle}](${relPath})`
  const cleanHook = hook.replace(/\s+/g, ' ').trim()
  if (!cleanHook) return head
  const line = `${head} — ${cleanHook}`
  if (line.length <= MAX_INDEX_LINE_CHARS) return line
  const room = MAX_INDEX_LINE_CHARS - head.length - 4
  return room > 10 ? `${head} — ${cleanHook.slice(0, room).trimEnd()}…` : head
}

function pointerPattern(relPath: string): RegExp {
  return new RegExp(`\\]\\((?:\\./)?${escapeRegExp(relPath)}\\)`)
}

/** Index of the first line pointing at `relPath`, or -1. */
export function findIndexLine(lines: readonly string[], relPath: string): number {
  const re = pointerPattern(relPath)
  return lines.findIndex((l) => re.test(l))
}

function splitLines(content: string): string[] {
  if (content === '') return []
  const lines = content.replace(/\n+$/, '').split('\n')
  return lines
}

function joinLines(lines: string[]): string {
  return lines.length ? lines.join('\n') + '\n' : ''
}

/** Replaces the pointer line for `relPath` in place, or appends it. */
export function upsertIndexLine(content: string, relPath: string, line: string): string {
  const lines = splitLines(content)
  const i = findIndexLine(lines, relPath)
  if (i >= 0) lines[i] = line
  else lines.push(line)
  return joinLines(lines)
}

export function removeIndexLine(content: string, relPath: string): string {
  const re = pointerPattern(relPath)
  return joinLines(splitLines(content).filter((l) => !re.test(l)))
}
