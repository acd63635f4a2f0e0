import { join } from 'node:path'
import { readIfExists, writeFileAtomic } from '../store/atomic-write.js'
import { DRIFT_CAVEAT, IGNORE_MEMORY_RULE, typesSection, WHAT_NOT_TO_SAVE } from './sections.js'

const pad = (n: number) => String(n).padStart(2, '0')

/** `logs/YYYY/MM/YYYY-MM-DD.md` relative to the memory dir, in local time. */
export function dailyLogRelPath(date: Date): string {
  const y = date.getFullYear()
  const m = pad(date.getMonth() + 1)
  const d = pad(date.getDate())
  return join('logs', String(y), m, `${y}-${m}-${d}.md`)
}

/**
 * KAIROS (assistant) mode: no live index; the model appends to today's log. The prompt names
 * the path pattern, not today's date, so the cached prompt stays valid across midnight.
 */
export function buildAssistantDailyLogPrompt(memoryDir: string): string {
  return [
    '# auto memory (daily log)',
    '',
    `You have a persistent memory at \`${memoryDir}\`, kept as one log file per day.`,
    '',
    `Append what is worth remembering to \`${join(memoryDir, 'logs')}/YYYY/MM/YYYY-MM-DD.md\`, where the date is today's date (take it from the conversation or the environment). Create the file if it is missing; never rewrite earlier entries or other days' files. Each entry is one short bullet with the time (\`- HH:MM …\`).`,
    '',
    'There is no MEMORY.md index to maintain in this mode: a background consolidation pass distils the logs into topic memories later.',
    '',
    ...typesSection({ withScope: false }),
    ...WHAT_NOT_TO_SAVE,
    DRIFT_CAVEAT,
    '',
    IGNORE_MEMORY_RULE,
  ]
    .join('\n')
    .trimEnd()
}

/** Appends one entry to the day's log (atomic rewrite of the file), returning its path. */
export async function appendDailyLogEntry(
  memoryDir: string,
  entry: string,
  now: Date = new Date(),
): Promise<string> {
  const path = join(memoryDir, dailyLogRelPath(now))
  const existing = (await readIfExists(path)) ?? `# ${dailyLogRelPath(now).slice(-13, -3)}\n\n`
  const line = `- ${pad(now.getHours())}:${pad(now.getMinutes())} ${entry.replace(/\s+/g, ' ').trim()}\n`
  await writeFileAtomic(path, existing.endsWith('\n') ? existing + line : `${existing}\n${line}`)
  return path
}
