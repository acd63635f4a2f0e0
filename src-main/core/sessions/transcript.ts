import type Anthropic from '@anthropic-ai/sdk'

/** One line of a Claude Code transcript (`<session>.jsonl`), the fields Memdir reads. */
export interface TranscriptEntry {
  type: string
  uuid?: string
  parentUuid?: string | null
  isSidechain?: boolean
  isMeta?: boolean
  isCompactSummary?: boolean
  subtype?: string
  sessionId?: string
  timestamp?: string
  agentId?: string
  summary?: string
  leafUuid?: string
  message?: {
    id?: string
    role?: string
    content?: string | Anthropic.ContentBlockParam[]
    stop_reason?: string | null
  }
}

export interface ParsedTranscript {
  entries: TranscriptEntry[]
  /** 1-based numbers of lines that were not JSON objects. */
  malformedLines: number[]
  /** `summary` lines: titles Claude Code gave to conversation leaves. */
  summaries: { summary: string; leafUuid?: string }[]
}

/** A Messages-API message rebuilt from one or more transcript entries. */
export interface TranscriptMessage {
  /** uuid of the last entry folded into this message: the extraction cursor points at these. */
  uuid: string
  role: 'user' | 'assistant'
  content: Anthropic.ContentBlockParam[]
  timestamp?: string
}

export function parseTranscriptLines(text: string, firstLineNumber = 1): ParsedTranscript {
  const entries: TranscriptEntry[] = []
  const malformedLines: number[] = []
  const summaries: ParsedTranscript['summaries'] = []
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return
    try {
      const v = JSON.parse(line) as unknown
      if (
        !v ||
        typeof v !== 'object' ||
        Array.isArray(v) ||
        typeof (v as TranscriptEntry).type !== 'string'
      ) {
        malformedLines.push(firstLineNumber + i)
        return
      }
      const e = v as TranscriptEntry
      if (e.type === 'summary' && typeof e.summary === 'string')
        summaries.push({ summary: e.summary, leafUuid: e.leafUuid })
      entries.push(e)
    } catch {
      malformedLines.push(firstLineNumber + i)
    }
  })
  return { entries, malformedLines, summaries }
}

const isChainEntry = (e: TranscriptEntry) =>
  typeof e.uuid === 'string' && (e.type === 'user' || e.type === 'assistant' || e.type === 'system')

/**
 * The live conversation: from the last main-chain entry back through parentUuid to the root.
 * A compaction boundary has no parent, so the walk naturally stops at the latest compaction;
 * abandoned branches (edits, retries) and sidechains (subagents) are left out.
 */
export function mainChain(
  entries: readonly TranscriptEntry[],
  opts: { sidechain?: boolean } = {},
): TranscriptEntry[] {
  const wantSide = opts.sidechain ?? false
  const byUuid = new Map<string, TranscriptEntry>()
  let leaf: TranscriptEntry | undefined
  for (const e of entries) {
    if (!isChainEntry(e)) continue
    byUuid.set(e.uuid as string, e)
    if (Boolean(e.isSidechain) === wantSide) leaf = e
  }
  const chain: TranscriptEntry[] = []
  const seen = new Set<string>()
  for (
    let e = leaf;
    e && !seen.has(e.uuid as string);
    e = e.parentUuid ? byUuid.get(e.parentUuid) : undefined
  ) {
    seen.add(e.uuid as string)
    chain.push(e)
  }
  return chain.reverse()
}

function blocksOf(
  content: string | Anthropic.ContentBlockParam[] | undefined,
): Anthropic.ContentBlockParam[] {
  if (content === undefined) return []
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  // Thinking blocks are bound to signatures of the original request; they cannot be replayed.
  return content.filter((b) => b && b.type !== 'thinking' && b.type !== 'redacted_thinking')
}

/** Drops tool_use blocks that never got a result (a turn cut short), and results without a call. */
function pairToolBlocks(messages: TranscriptMessage[]): TranscriptMessage[] {
  const used = new Set<string>()
  const answered = new Set<string>()
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === 'tool_use') used.add(b.id)
      if (b.type === 'tool_result') answered.add(b.tool_use_id)
    }
  }
  return messages
    .map((m) => ({
      ...m,
      content: m.content.filter(
        (b) =>
          (b.type !== 'tool_use' || answered.has(b.id)) &&
          (b.type !== 'tool_result' || used.has(b.tool_use_id)),
      ),
    }))
    .filter((m) => m.content.length > 0)
}

/**
 * Rebuilds Messages-API messages from transcript entries; meta and system lines are skipped.
 */
export function toMessages(chain: readonly TranscriptEntry[]): TranscriptMessage[] {
  const out: TranscriptMessage[] = []
  for (const e of chain) {
    if ((e.type !== 'user' && e.type !== 'assistant') || e.isMeta || !e.message) continue
    const role = e.type
    const content = blocksOf(e.message.content)
    if (!content.length) continue
    const prev = out[out.length - 1]
    // Claude Code writes one entry per content block of an assistant message, and tool results
    // as their own user entries: consecutive same-role entries form one API message.
    if (prev && prev.role === role) {
      prev.content.push(...content)
      prev.uuid = e.uuid as string
      prev.timestamp = e.timestamp ?? prev.timestamp
    } else {
      out.push({ uuid: e.uuid as string, role, content: [...content], timestamp: e.timestamp })
    }
  }
  return pairToolBlocks(out)
}

/** Parse + main chain + messages in one call. */
export function readTranscriptMessages(text: string): {
  messages: TranscriptMessage[]
  parsed: ParsedTranscript
} {
  const parsed = parseTranscriptLines(text)
  return { messages: toMessages(mainChain(parsed.entries)), parsed }
}

/** A turn has ended when the main conversation's last entry is an assistant message without tool_use. */
export function turnEndedAt(entries: readonly TranscriptEntry[]): string | undefined {
  const chain = mainChain(entries)
  const last = chain[chain.length - 1]
  if (!last || last.type !== 'assistant' || !last.message) return undefined
  // All entries of that assistant message (split per block) must be tool-free.
  const id = last.message.id
  const parts = id ? chain.filter((e) => e.type === 'assistant' && e.message?.id === id) : [last]
  const hasToolUse = parts.some((p) => blocksOf(p.message?.content).some((b) => b.type === 'tool_use'))
  if (hasToolUse || last.message.stop_reason === 'tool_use') return undefined
  return last.uuid
}

export function toApiMessages(messages: readonly TranscriptMessage[]): Anthropic.MessageParam[] {
  return messages.map((m) => ({ role: m.role, content: m.content }))
}
