import { openTranscript } from './transcript-file.js'
import { readTranscriptMessages, type TranscriptMessage } from './transcript.js'

const TAIL_BYTES = 512 * 1024

/** A user message the human typed (not only tool results, not a meta/system reminder). */
function isHumanTurn(m: TranscriptMessage): boolean {
  return m.role === 'user' && m.content.some((b) => b.type === 'text')
}

/**
 * SPEC §6 "recently used tools": names of tools whose calls succeeded since the last human turn,
 * in first-use order.
 */
export function recentSuccessfulTools(messages: readonly TranscriptMessage[]): string[] {
  let start = 0
  for (let i = messages.length - 1; i >= 0; i--)
    if (isHumanTurn(messages[i]!)) {
      start = i + 1
      break
    }
  const calls = new Map<string, string>()
  const ok = new Set<string>()
  for (const m of messages.slice(start))
    for (const b of m.content) {
      if (b.type === 'tool_use') calls.set(b.id, b.name)
      else if (b.type === 'tool_result' && !b.is_error && calls.has(b.tool_use_id))
        ok.add(calls.get(b.tool_use_id)!)
    }
  return [...ok]
}

/** The same, from the end of a transcript file (only its last 512 KiB are read). */
export async function recentToolsInTranscript(path: string): Promise<string[]> {
  const opened = await openTranscript(path)
  if (!opened) return []
  const { fh, size } = opened
  try {
    const from = Math.max(0, size - TAIL_BYTES)
    const buf = Buffer.alloc(size - from)
    await fh.read(buf, 0, buf.length, from)
    let text = buf.toString('utf8')
    if (from > 0) text = text.slice(text.indexOf('\n') + 1) // the first line is cut
    return recentSuccessfulTools(readTranscriptMessages(text).messages)
  } finally {
    await fh.close()
  }
}
