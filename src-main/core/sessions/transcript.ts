import { rethrowUnless } from '../../../src-shared/errors.js'
import type Anthropic from '@anthropic-ai/sdk'

/** One line of a Claude Code transcript (`<session>.jsonl`), the fields Memdir reads. */
export interface TranscriptEntry {
  type: string
  uuid?: string
  parentUuid?: string | null
  /** Compact boundaries: the conversation they replaced (not followed: compaction starts anew). */
  logicalParentUuid?: string | null
  isSidechain?: boolean
  isMeta?: boolean
  isCompactSummary?: boolean
  subtype?: string
  sessionId?: string
  timestamp?: string
  agentId?: string
  cwd?: string
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
    } catch (e) {
      rethrowUnless(e instanceof SyntaxError, e)
      malformedLines.push(firstLineNumber + i)
    }
  })
  return { entries, malformedLines, summaries }
}

const isMessageEntry = (e: TranscriptEntry) =>
  (e.type === 'user' || e.type === 'assistant') && typeof e.uuid === 'string' && e.message !== undefined

const timeOf = (e: TranscriptEntry) => {
  const t = e.timestamp ? Date.parse(e.timestamp) : NaN
  return Number.isNaN(t) ? -Infinity : t
}

function toolUseIds(e: TranscriptEntry): string[] {
  const c = e.message?.content
  return Array.isArray(c) ? c.flatMap((b) => (b?.type === 'tool_use' ? [b.id] : [])) : []
}

function toolResultIds(e: TranscriptEntry): string[] {
  const c = e.message?.content
  return Array.isArray(c) ? c.flatMap((b) => (b?.type === 'tool_result' ? [b.tool_use_id] : [])) : []
}

interface ChainIndex {
  byUuid: Map<string, TranscriptEntry>
  position: Map<TranscriptEntry, number>
}

function indexEntries(entries: readonly TranscriptEntry[]): ChainIndex {
  const byUuid = new Map<string, TranscriptEntry>()
  const position = new Map<TranscriptEntry, number>()
  entries.forEach((e, i) => {
    position.set(e, i)
    if (typeof e.uuid === 'string') byUuid.set(e.uuid, e)
  })
  return { byUuid, position }
}

/** From `e` up the parentUuid links: the entries passed, newest first, stopping at a cycle or a gap. */
function* ancestors(e: TranscriptEntry | undefined, byUuid: Map<string, TranscriptEntry>) {
  const seen = new Set<string>()
  for (
    let cur = e;
    cur && !seen.has(cur.uuid as string);
    cur = cur.parentUuid ? byUuid.get(cur.parentUuid) : undefined
  ) {
    seen.add(cur.uuid as string)
    yield cur
  }
}

/**
 * The newest user/assistant entry of the wanted side. Claude Code's chains hold progress,
 * attachment and system entries (hooks, tool progress, turn summaries); every leaf is walked back to
 * its first message, and the newest message by timestamp (then by file position) wins.
 */
function newestLeafMessage(entries: readonly TranscriptEntry[], ix: ChainIndex, side: boolean) {
  const hasChild = new Set<string>()
  for (const e of entries) if (e.parentUuid) hasChild.add(e.parentUuid)
  let best: TranscriptEntry | undefined
  for (const e of entries) {
    if (typeof e.uuid !== 'string' || hasChild.has(e.uuid) || Boolean(e.isSidechain) !== side) continue
    for (const a of ancestors(e, ix.byUuid)) {
      if (!isMessageEntry(a)) continue
      const better =
        !best ||
        timeOf(a) > timeOf(best) ||
        (timeOf(a) === timeOf(best) && ix.position.get(a)! > ix.position.get(best)!)
      if (better) best = a
      break
    }
  }
  return best
}

/** Newer clients keep the last messages before a compaction verbatim, after the summary. */
interface CompactMetadata {
  preservedMessages?: { anchorUuid?: string; uuids?: string[] }
  preservedSegment?: { headUuid?: string; anchorUuid?: string; tailUuid?: string }
}

function preservedAfterBoundary(boundary: TranscriptEntry, ix: ChainIndex) {
  const meta = (boundary as { compactMetadata?: CompactMetadata }).compactMetadata
  const listed = meta?.preservedMessages
  if (listed?.uuids?.length) {
    const entries = listed.uuids.map((u) => ix.byUuid.get(u)).filter((e): e is TranscriptEntry => !!e)
    return { anchor: listed.anchorUuid, entries }
  }
  const seg = meta?.preservedSegment
  if (!seg?.tailUuid || !seg.headUuid) return undefined
  const entries: TranscriptEntry[] = []
  for (const e of ancestors(ix.byUuid.get(seg.tailUuid), ix.byUuid)) {
    entries.unshift(e)
    if (e.uuid === seg.headUuid) return { anchor: seg.anchorUuid, entries }
  }
  return undefined
}

/**
 * The live conversation, as Claude Code rebuilds it: from the newest message back through parentUuid
 * to the root (a compact boundary has no parent, so the walk stops at the latest compaction; the
 * messages it preserved verbatim follow its summary), passing through progress/attachment/system
 * entries. Parallel tool use splits one API message into several assistant entries sharing
 * `message.id`, and only one of them lies on the parent path: the others and their tool results are
 * recovered, the whole call in file order. Abandoned branches and the other side (subagents when
 * reading the main chain) are left out.
 */
export function mainChain(
  entries: readonly TranscriptEntry[],
  opts: { sidechain?: boolean } = {},
): TranscriptEntry[] {
  const side = opts.sidechain ?? false
  const ix = indexEntries(entries)
  const path = [...ancestors(newestLeafMessage(entries, ix, side), ix.byUuid)].reverse()
  const root = path[0]
  const preserved =
    root?.type === 'system' && root.subtype === 'compact_boundary'
      ? preservedAfterBoundary(root, ix)
      : undefined
  if (preserved) {
    const at = path.findIndex((e) => e.uuid === preserved.anchor)
    path.splice(at >= 0 ? at + 1 : 1, 0, ...preserved.entries)
  }
  let chain = path.filter(isMessageEntry)
  const sameSide = (e: TranscriptEntry) => Boolean(e.isSidechain) === side && isMessageEntry(e)
  const groups = new Set(
    chain.flatMap((e) => (e.type === 'assistant' && e.message?.id ? [e.message.id] : [])),
  )
  for (const id of groups) {
    const parts = entries.filter((e) => sameSide(e) && e.type === 'assistant' && e.message?.id === id)
    const calls = new Set(parts.flatMap(toolUseIds))
    const results = entries.filter(
      (e) => sameSide(e) && e.type === 'user' && toolResultIds(e).some((t) => calls.has(t)),
    )
    const call = [...parts, ...results].sort((a, b) => ix.position.get(a)! - ix.position.get(b)!)
    if (call.every((e) => chain.includes(e))) continue
    const members = new Set(call)
    const first = chain.findIndex((e) => members.has(e))
    chain = [
      ...chain.slice(0, first).filter((e) => !members.has(e)),
      ...call,
      ...chain.slice(first).filter((e) => !members.has(e)),
    ]
  }
  return chain
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
 * Rebuilds Messages-API messages from chain entries. Meta user entries (command caveats, hook
 * context) stay: Claude Code sends them to the model too. Progress, attachment and system entries
 * are not messages.
 */
export function toMessages(chain: readonly TranscriptEntry[]): TranscriptMessage[] {
  const out: TranscriptMessage[] = []
  for (const e of chain) {
    if (!isMessageEntry(e)) continue
    const role = e.type as 'user' | 'assistant'
    const content = blocksOf(e.message!.content)
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

/** Stop reasons that end a turn: the model answered without asking for a tool. */
const FINAL_STOPS = new Set(['end_turn', 'stop_sequence', 'max_tokens', 'refusal'])
/** System entries Claude Code writes once a turn is over. */
const TURN_OVER = new Set(['stop_hook_summary', 'turn_duration'])

export type TurnState =
  | { state: 'ended'; leafUuid: string }
  /** The newest assistant message has no tool_use yet and no stop reason: over once the file is idle. */
  | { state: 'maybe'; leafUuid: string }
  | { state: 'open' }

/**
 * Where the main conversation's turn stands. A turn is over when its newest assistant message
 * stopped without tool use: by its stop reason where Claude Code wrote one, or by a turn-over system
 * entry after it. Versions that stream entries write a text block before the tool_use block of the
 * same message, without a stop reason: such a message is only "maybe" over until the session is idle.
 */
export function turnState(entries: readonly TranscriptEntry[]): TurnState {
  const chain = mainChain(entries)
  const last = chain[chain.length - 1]
  if (!last || last.type !== 'assistant') return { state: 'open' }
  const id = last.message?.id
  const parts = id ? chain.filter((e) => e.type === 'assistant' && e.message?.id === id) : [last]
  if (parts.some((p) => toolUseIds(p).length > 0)) return { state: 'open' }
  const stops = parts.map((p) => p.message?.stop_reason).filter((s): s is string => typeof s === 'string')
  if (stops.some((s) => !FINAL_STOPS.has(s))) return { state: 'open' }
  const leafUuid = last.uuid as string
  if (stops.length) return { state: 'ended', leafUuid }
  const ix = indexEntries(entries)
  const after = entries.slice(ix.position.get(last)! + 1)
  const closedBy = after.some(
    (e) =>
      e.type === 'system' && TURN_OVER.has(e.subtype ?? '') && [...ancestors(e, ix.byUuid)].includes(last),
  )
  return closedBy ? { state: 'ended', leafUuid } : { state: 'maybe', leafUuid }
}

/** The uuid of the message that ended the turn, or undefined while it is open (idle counts as over). */
export function turnEndedAt(
  entries: readonly TranscriptEntry[],
  opts: { idle?: boolean } = {},
): string | undefined {
  const s = turnState(entries)
  if (s.state === 'ended' || (s.state === 'maybe' && opts.idle)) return s.leafUuid
  return undefined
}

export function toApiMessages(messages: readonly TranscriptMessage[]): Anthropic.MessageParam[] {
  return messages.map((m) => ({ role: m.role, content: m.content }))
}
