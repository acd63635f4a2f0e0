import { messageOf } from '../../../src-shared/errors.js'
import { count } from '../../../src-shared/words.js'
import { basename, relative } from 'node:path'
import type Anthropic from '@anthropic-ai/sdk'
import type { RecordedWrite } from '../store/recorded-write.js'
import { buildCacheSafeParams, type CacheSafeParams } from '../model/cache-safe.js'
import type { ModelClient } from '../model/client.js'
import { MEMORY_AGENT_TOOLS, toAnthropicTool } from '../model/tools/index.js'
import { isPathInside, ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import { toApiMessages, type TranscriptMessage } from '../sessions/transcript.js'
import { formatMemoryManifest } from '../store/manifest.js'
import type { MemoryFormat } from '../store/frontmatter.js'
import { type MemoryStyle, preferredMemoryStyle } from '../store/memory-format.js'
import { memoryStamper } from '../store/memory-stamps.js'
import { scanMemoryFiles, type Scanner } from '../store/scan.js'
import type { MemoryHeader } from '../store/memory-header.js'
import { type CursorStore, MemoryCursorStore } from './cursor-store.js'
import { buildExtractionPrompt } from './extraction-prompt.js'
import { extractedUpTo, hasMemoryWritesSince, messagesSince } from './mutual-exclusion.js'
import { runMemoryAgent, type ReviewSetting } from '../review/run-memory-agent.js'

/** Run ids name a run in history: "Undo this run" reverts exactly the writes recorded under it. */
export type ExtractionEvent =
  | { type: 'started'; runId: string; newMessageCount: number; trailing: boolean }
  | { type: 'skipped'; reason: string }
  | { type: 'wrote'; runId: string; paths: string[]; memories: number; teamMemories: number; summary: string }
  | { type: 'failed'; runId: string; error: string }
  /** Review mode: nothing was written; the changes wait in the inbox. */
  | { type: 'proposed'; runId: string; proposalId: string; paths: string[] }

export interface ExtractionContext {
  messages: TranscriptMessage[]
  /** The Claude Code session: each keeps its own cursor. */
  sessionId?: string
  /** Set for subagent turns: those never extract. */
  agentId?: string
  /** The parent's request params, when known; otherwise rebuilt from the messages. */
  cacheSafeParams?: CacheSafeParams
  /** Memories the client saved itself in this session (its `memory_saved` entries): it extracts it. */
  clientSaved?: readonly string[]
}

export interface ExtractionGate {
  ok: boolean
  reason?: string
}

export interface ExtractDeps {
  /** Where memory files are read (the entry point's choice). */
  scanner?: Scanner
  memoryDir: string
  /** Team dir when team memory is on (combined prompt and the team count). */
  teamDir?: string
  /** Undefined when no model is configured: runs are skipped with "needs a model". */
  client?: ModelClient
  /** Feature switch, auto-memory enablement and remote mode, checked in this order each call. */
  gates: () => ExtractionGate[]
  /** The parent system prompt used when a context carries no cacheSafeParams, telling agents the format to write. */
  systemPrompt: (format: MemoryFormat) => Promise<string>
  /** How new memories are written (format and stamps); default: the newest memory's format, no stamps. */
  memoryStyle?: (newestFirst: readonly MemoryHeader[]) => Promise<MemoryStyle>
  /** Whether the user's client extracts memories itself (its own switch is on): its turns are its own. */
  clientExtracts?: () => Promise<boolean>
  /** Run every N eligible turns (default 1). */
  throttleEvery?: number
  maxTurns?: number
  cwd?: string
  onEvent?: (e: ExtractionEvent) => void
  /** Review mode: when enabled, writes become proposals in this store. */
  review?: ReviewSetting
  /** How a run's writes reach history, under its run id. */
  recordFor?: (runId: string) => RecordedWrite
  /** Where each session's cursor is kept (default: in this instance only). */
  cursors?: CursorStore
  /** Runs each extraction under a lock shared with other processes; throws when it cannot get it. */
  exclusive?: (run: () => Promise<void>) => Promise<void>
}

export interface Extractor {
  executeExtractMemories: (ctx: ExtractionContext) => Promise<void>
  drainPendingExtraction: (timeoutMs?: number) => Promise<boolean>
  readonly state: {
    cursor?: string
    inProgress: boolean
    turnsSinceLastExtraction: number
    hasPending: boolean
  }
}

const first = <T>(m: Map<string, T>): T | undefined => m.values().next().value

/** "Saved 2 memories · 1 team memory" */
export function summarizeWrites(memories: number, teamMemories: number, cutFromSession = false): string {
  const parts = [`Saved ${count(memories, 'memory', 'memories')}`]
  if (teamMemories) parts.push(count(teamMemories, 'team memory', 'team memories'))
  const said = parts.join(' · ')
  return cutFromSession ? `${said} (from the newest part of a session too long for the model)` : said
}

/**
 * initExtractMemories: all state lives in this closure (cursor, inProgress, throttle counter,
 * pending context), so every instance — and every test — starts clean.
 */
export function initExtractMemories(deps: ExtractDeps): Extractor {
  /** The cursor of the session handled last (state.cursor). */
  let cursor: string | undefined
  const cursors = deps.cursors ?? new MemoryCursorStore()
  let inProgress = false
  let turnsSinceLastExtraction = 0
  /** Calls made during a run, the latest per session. */
  const pending = new Map<string, ExtractionContext>()
  let inFlight: Promise<void> | undefined
  let runIds = 0
  const emit = (e: ExtractionEvent) => deps.onEvent?.(e)
  const skip = (reason: string) => emit({ type: 'skipped', reason })

  async function parentParams(ctx: ExtractionContext, format: MemoryFormat): Promise<CacheSafeParams> {
    if (ctx.cacheSafeParams) return ctx.cacheSafeParams
    return buildCacheSafeParams({
      model: deps.client!.config.agentModel,
      system: await deps.systemPrompt(format),
      tools: MEMORY_AGENT_TOOLS.map(toAnthropicTool),
      messages: toApiMessages(ctx.messages),
    })
  }

  async function runOnce(ctx: ExtractionContext, trailing: boolean): Promise<void> {
    if (!trailing) {
      turnsSinceLastExtraction++
      if (turnsSinceLastExtraction < (deps.throttleEvery ?? 1)) return skip('throttled')
    }
    turnsSinceLastExtraction = 0
    if (!deps.exclusive) return extractNew(ctx, trailing)
    try {
      await deps.exclusive(() => extractNew(ctx, trailing))
    } catch (e) {
      skip(`another extraction of this memory is still running (${messageOf(e)})`)
    }
  }

  /** From the session's cursor to the last message: one forked-agent run. */
  async function extractNew(ctx: ExtractionContext, trailing: boolean): Promise<void> {
    const session = ctx.sessionId ?? ''
    // Where this session's last run ended; else, when that message is not in the live conversation
    // (a session forked from another, or one rewound to an earlier turn: Claude Code drops the
    // abandoned branch), the last of its messages any run ended at.
    const own = await cursors.get(session)
    cursor =
      own !== undefined && ctx.messages.some((m) => m.uuid === own)
        ? own
        : (extractedUpTo(ctx.messages, await cursors.runEnds()) ?? own)
    const advance = async (uuid: string) => {
      cursor = uuid
      await cursors.set(session, uuid)
    }
    const fresh = messagesSince(ctx.messages, cursor)
    const last = ctx.messages[ctx.messages.length - 1]
    if (!fresh.length || !last) return skip('no new messages')
    if (hasMemoryWritesSince(ctx.messages, cursor, deps.memoryDir)) {
      await advance(last.uuid)
      return skip('the main agent already wrote memory this turn')
    }
    // The client's own extraction runs after the turn, too late to look for its notice: its switch
    // (or an earlier notice in the session) says the turn is its to extract.
    if (ctx.clientSaved?.length || (await deps.clientExtracts?.())) {
      await advance(last.uuid)
      return skip('Claude Code saves memories itself in this session')
    }
    if (!deps.client) return skip('needs a model: set ANTHROPIC_API_KEY or configure one in settings')

    const runId = `extraction-${Date.now()}-${++runIds}`
    emit({ type: 'started', runId, newMessageCount: fresh.length, trailing })
    try {
      const headers = await scanMemoryFiles(deps.memoryDir, { scanner: deps.scanner })
      const style = deps.memoryStyle ? await deps.memoryStyle(headers) : preferredMemoryStyle(headers)
      const format = style.format
      const prompt = buildExtractionPrompt({
        newMessageCount: fresh.length,
        memoryDir: deps.memoryDir,
        teamDir: deps.teamDir,
        manifest: formatMemoryManifest(headers),
        format,
      })
      const base = await parentParams(ctx, format)
      const forkPrompt: Anthropic.MessageParam = { role: 'user', content: [{ type: 'text', text: prompt }] }
      const { result, proposed } = await runMemoryAgent({
        client: deps.client,
        base,
        prompt: forkPrompt,
        memoryDir: deps.memoryDir,
        maxTurns: deps.maxTurns ?? 5,
        cwd: deps.cwd ?? deps.memoryDir,
        review: deps.review,
        record: deps.recordFor?.(runId),
        stamp: memoryStamper([deps.memoryDir, ...(deps.teamDir ? [deps.teamDir] : [])], {
          stamps: style.stamps,
          sessionId: ctx.sessionId,
        }),
      })
      await advance(last.uuid)
      if (proposed && deps.review) {
        const files = proposed
        if (!files.length) return skip('nothing new worth saving')
        const proposal = await deps.review.proposals.create({
          author: 'extraction',
          reason: result.finalText.trim() || 'Memories from the last turn',
          files,
        })
        emit({ type: 'proposed', runId, proposalId: proposal.id, paths: files.map((f) => f.path) })
        return
      }
      const paths = result.writtenPaths.filter((p) => isPathInside(p, deps.memoryDir))
      const topics = paths.filter((p) => basename(p) !== ENTRYPOINT_NAME)
      const team = deps.teamDir ? topics.filter((p) => isPathInside(p, deps.teamDir!)).length : 0
      if (!paths.length) return skip('nothing new worth saving')
      emit({
        type: 'wrote',
        runId,
        paths: paths.map((p) => relative(deps.memoryDir, p).split('\\').join('/')),
        memories: topics.length - team,
        teamMemories: team,
        summary: summarizeWrites(topics.length - team, team, result.prefixLeftOut > 0),
      })
    } catch (e) {
      emit({ type: 'failed', runId, error: messageOf(e) }) // cursor stays: retried next time
    }
  }

  async function runWithTrailing(ctx: ExtractionContext): Promise<void> {
    inProgress = true
    try {
      await runOnce(ctx, false)
      // Coalescing: calls during the run left their latest context per session; one trailing run each.
      for (let next = first(pending); next; next = first(pending)) {
        pending.delete(next.sessionId ?? '')
        await runOnce(next, true)
      }
    } finally {
      inProgress = false
    }
  }

  return {
    async executeExtractMemories(ctx) {
      if (ctx.agentId) return skip('subagent turn')
      for (const gate of deps.gates()) if (!gate.ok) return skip(gate.reason ?? 'disabled')
      if (inProgress) {
        pending.delete(ctx.sessionId ?? '') // re-inserted last: sessions run in the order they ended
        pending.set(ctx.sessionId ?? '', ctx)
        return
      }
      inFlight = runWithTrailing(ctx)
      await inFlight
    },
    async drainPendingExtraction(timeoutMs = 60_000) {
      if (!inFlight || !inProgress) return true
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))
      const done = inFlight.then(() => true)
      const r = await Promise.race([done, timeout])
      clearTimeout(timer)
      return r
    },
    get state() {
      return { cursor, inProgress, turnsSinceLastExtraction, hasPending: pending.size > 0 }
    },
  }
}
