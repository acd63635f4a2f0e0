import { isAbsolute, normalize } from 'node:path'
import { isPathInside } from '../paths/auto-mem-path.js'
import type { TranscriptMessage } from '../sessions/transcript.js'

const WRITE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])

/** Messages after the cursor; all of them when the cursor is gone (compaction) or unset. */
export function messagesSince(
  messages: readonly TranscriptMessage[],
  cursor: string | undefined,
): TranscriptMessage[] {
  if (!cursor) return [...messages]
  const i = messages.findIndex((m) => m.uuid === cursor)
  return i < 0 ? [...messages] : messages.slice(i + 1)
}

/**
 * Where a conversation was extracted already when its own cursor is not in it: the last of its
 * messages that an extraction (of this session or another) ended at. A forked session
 * (`--fork-session`) carries the old session's messages, uuids and all, and a rewound one has
 * dropped the branch its cursor was on: without this, either would extract everything again.
 */
export function extractedUpTo(
  messages: readonly TranscriptMessage[],
  runEnds: ReadonlySet<string>,
): string | undefined {
  if (!runEnds.size) return undefined
  for (let i = messages.length - 1; i >= 0; i--) if (runEnds.has(messages[i]!.uuid)) return messages[i]!.uuid
  return undefined
}

/** Whether the main agent itself wrote into the memory dir since the cursor (then extraction skips). */
export function hasMemoryWritesSince(
  messages: readonly TranscriptMessage[],
  cursor: string | undefined,
  memoryDir: string,
): boolean {
  return messagesSince(messages, cursor).some(
    (m) =>
      m.role === 'assistant' &&
      m.content.some((b) => {
        if (b.type !== 'tool_use' || !WRITE_TOOLS.has(b.name)) return false
        const p = (b.input as { file_path?: unknown } | undefined)?.file_path
        return typeof p === 'string' && isAbsolute(p) && isPathInside(normalize(p), memoryDir)
      }),
  )
}
