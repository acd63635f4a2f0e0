import { messageOf, orIfMissing } from '../../../src-shared/errors.js'
import { ago, count, span } from '../../../src-shared/words.js'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type Anthropic from '@anthropic-ai/sdk'
import { putFile, type RecordedWrite } from '../store/recorded-write.js'
import { buildCacheSafeParams } from '../model/cache-safe.js'
import type { ModelClient } from '../model/client.js'
import { MEMORY_AGENT_TOOLS, toAnthropicTool } from '../model/tools/index.js'
import { ENTRYPOINT_NAME, isPathInside } from '../paths/auto-mem-path.js'
import type { MemoryFormat } from '../store/frontmatter.js'
import { type MemoryStyle, preferredMemoryStyle } from '../store/memory-format.js'
import { memoryStamper } from '../store/memory-stamps.js'
import type { MemoryHeader } from '../store/memory-header.js'
import { scanMemoryFiles, type Scanner } from '../store/scan.js'
import { buildConsolidationPrompt } from './consolidation-prompt.js'
import {
  lockPath,
  readLastConsolidatedAt,
  rollbackConsolidationLock,
  tryAcquireConsolidationLock,
  type LockOptions,
} from './lock.js'
import { sessionsTouchedSince } from './session-count.js'
import { createSnapshot, diffSnapshot, type FileChange } from './snapshot.js'
import { runMemoryAgent, type ReviewSetting } from '../review/run-memory-agent.js'

export const DREAM_DEFAULTS = { minHours: 24, minSessions: 5, scanIntervalMs: 10 * 60 * 1000, maxTurns: 30 }

export type DreamGate =
  'disabled' | 'too_soon' | 'scan_throttled' | 'not_enough_sessions' | 'locked' | 'needs_model'

export type DreamEvent =
  | { type: 'started'; runId: string; sessions: number; snapshotId: string }
  | { type: 'blocked'; gate: DreamGate; reason: string }
  | {
      type: 'improved'
      runId: string
      count: number
      files: FileChange[]
      summary: string
      snapshotId: string
      text: string
      /** Health findings that were there before the run and are gone after it. */
      fixed?: string[]
    }
  | { type: 'failed'; runId?: string; error: string; snapshotId?: string }
  | { type: 'proposed'; runId: string; proposalId: string; paths: string[]; snapshotId: string }

export interface DreamDeps {
  /** Where memory files are read (the entry point's choice). */
  scanner?: Scanner
  memoryDir: string
  transcriptDir: string
  /** Where snapshots go: outside the memory dir (app data). */
  snapshotDir: string
  client?: ModelClient
  /** The feature switch and auto-memory enablement. */
  enabled: () => { ok: boolean; reason?: string }
  /** The agent's system prompt, telling it the frontmatter format to write. */
  systemPrompt: (format: MemoryFormat) => Promise<string>
  /** Which frontmatter format memories use; default: detected from the newest memory. */
  /** How new memories are written (format and stamps); default: the newest memory's format, no stamps. */
  memoryStyle?: (newestFirst: readonly MemoryHeader[]) => Promise<MemoryStyle>
  minHours?: number
  minSessions?: number
  scanIntervalMs?: number
  maxTurns?: number
  now?: () => number
  lock?: Omit<LockOptions, 'now'>
  cwd?: string
  onEvent?: (e: DreamEvent) => void
  /** Review mode: when enabled, the consolidation's changes become one proposal. */
  review?: ReviewSetting
  /** How the run's writes (and the emptied files it deletes) reach history, under its run id. */
  recordFor?: (runId: string) => RecordedWrite
  /** What a health check (core/health) finds now: given to the agent, and compared after the run. */
  healthFindings?: () => Promise<{ id: string; path: string; message: string }[]>
}

export interface DreamRunOptions {
  /** Skip the time, throttle and session gates (never the lock). */
  force?: boolean
  currentSessionId?: string
}

export type DreamOutcome = Extract<DreamEvent, { type: 'blocked' | 'improved' | 'failed' | 'proposed' }>

/** "Improved 3 memories"; a run that only edited an index says so, not that nothing changed. */
export function dreamSummary(changed: number, indexes = 0): string {
  if (changed > 0) return `Improved ${count(changed, 'memory', 'memories')}`
  return indexes > 0
    ? 'Tidied the index (MEMORY.md); no memory changed'
    : 'Nothing to consolidate: no memory changed'
}

/** Memory files the run emptied on purpose are deleted (the agent has no rm). */
async function removeEmptiedFiles(memoryDir: string, written: readonly string[], record?: RecordedWrite) {
  for (const p of written) {
    if (!p.endsWith('.md') || !isPathInside(p, memoryDir)) continue
    const st = await orIfMissing(stat(p), null)
    if (st && st.size === 0) await putFile(p, null, record)
  }
}

/** createAutoDream: the five gates, the lock, a snapshot, then the consolidation agent. */
export function createAutoDream(deps: DreamDeps) {
  let lastSessionScanAt = -Infinity
  let running = false
  const now = () => deps.now?.() ?? Date.now()
  const emit = <E extends DreamEvent>(e: E): E => {
    deps.onEvent?.(e)
    return e
  }
  const block = (gate: DreamGate, reason: string) => emit({ type: 'blocked', gate, reason } as const)

  async function executeAutoDream(opts: DreamRunOptions = {}): Promise<DreamOutcome> {
    const gate = deps.enabled()
    if (!gate.ok) return block('disabled', gate.reason ?? 'consolidation is switched off')
    if (running) return block('locked', 'a consolidation is already running in this app')
    const t = now()
    let last: number
    try {
      last = await readLastConsolidatedAt(deps.memoryDir)
    } catch (e) {
      // A lock that cannot be read never opens the time gate.
      return block(
        'locked',
        `cannot read ${lockPath(deps.memoryDir)} (${messageOf(e)}): consolidation waits until it can`,
      )
    }
    const minHours = deps.minHours ?? DREAM_DEFAULTS.minHours
    let sessions: string[] = []
    if (!opts.force) {
      const hours = (t - last) / 3_600_000
      if (hours < minHours)
        return block('too_soon', `last consolidation ${ago(t - last)} (needs ${span(minHours * 3_600_000)})`)
      const interval = deps.scanIntervalMs ?? DREAM_DEFAULTS.scanIntervalMs
      if (t - lastSessionScanAt < interval)
        return block('scan_throttled', 'sessions were checked less than 10 minutes ago')
      lastSessionScanAt = t
      sessions = await sessionsTouchedSince(deps.transcriptDir, last, opts.currentSessionId)
      const minSessions = deps.minSessions ?? DREAM_DEFAULTS.minSessions
      if (sessions.length < minSessions) {
        return block(
          'not_enough_sessions',
          `${count(sessions.length, 'session')} since the last consolidation (needs ${minSessions})`,
        )
      }
    } else {
      sessions = await sessionsTouchedSince(deps.transcriptDir, last, opts.currentSessionId)
    }
    if (!deps.client)
      return block('needs_model', 'needs a model: set ANTHROPIC_API_KEY or configure one in settings')
    const lock = await tryAcquireConsolidationLock(deps.memoryDir, { ...deps.lock, now: t })
    if (!lock.acquired) return block('locked', lock.reason)

    running = true
    const runId = `dream-${t}`
    const record = deps.recordFor?.(runId)
    let snapshotId: string | undefined
    try {
      const snap = await createSnapshot(deps.memoryDir, deps.snapshotDir, 'dream', t)
      snapshotId = snap.id
      emit({ type: 'started', runId, sessions: sessions.length, snapshotId })
      const headers = await scanMemoryFiles(deps.memoryDir, { scanner: deps.scanner })
      const style = deps.memoryStyle ? await deps.memoryStyle(headers) : preferredMemoryStyle(headers)
      const format = style.format
      const base = buildCacheSafeParams({
        model: deps.client.config.agentModel,
        system: await deps.systemPrompt(format),
        tools: MEMORY_AGENT_TOOLS.map(toAnthropicTool),
      })
      const before = (await deps.healthFindings?.().catch(() => undefined)) ?? []
      const prompt: Anthropic.MessageParam = {
        role: 'user',
        content: buildConsolidationPrompt({
          memoryDir: deps.memoryDir,
          transcriptDir: deps.transcriptDir,
          sessionCount: sessions.length,
          today: new Date(t).toISOString().slice(0, 10),
          findings: before.map((f) => `${f.path}: ${f.message}`),
        }),
      }
      const { result, proposed } = await runMemoryAgent({
        client: deps.client,
        base,
        prompt,
        memoryDir: deps.memoryDir,
        maxTurns: deps.maxTurns ?? DREAM_DEFAULTS.maxTurns,
        cwd: deps.cwd ?? deps.memoryDir,
        review: deps.review,
        record,
        // A consolidation rewrites memories: a kept `modified` is bumped, a new file stamped.
        stamp: memoryStamper([deps.memoryDir], { stamps: style.stamps }),
      })
      // A review with nothing in it is no proposal: a run that changed nothing says so in the feed.
      if (proposed?.length && deps.review) {
        // A successful run: its time stands, so the same consolidation is not proposed again and again.
        const files = proposed
        const proposal = await deps.review.proposals.create({
          author: 'dream',
          reason: result.finalText.trim() || 'Consolidation',
          files,
        })
        return emit({
          type: 'proposed',
          runId,
          proposalId: proposal.id,
          paths: files.map((f) => f.path),
          snapshotId,
        })
      }
      await removeEmptiedFiles(deps.memoryDir, result.writtenPaths, record)
      const files = await diffSnapshot(snap)
      const indexes = files.filter((f) => basename(f.path) === ENTRYPOINT_NAME).length
      const count = files.length - indexes
      const after = new Set(((await deps.healthFindings?.().catch(() => undefined)) ?? []).map((f) => f.id))
      const fixed = before.filter((f) => !after.has(f.id)).map((f) => `${f.path}: ${f.message}`)
      // Success: the lock's mtime (set at acquire) stands as the last-consolidated time.
      return emit({
        type: 'improved',
        runId,
        count,
        files,
        summary: dreamSummary(count, indexes),
        snapshotId,
        text: result.finalText,
        ...(fixed.length ? { fixed } : {}),
      })
    } catch (e) {
      await rollbackConsolidationLock(deps.memoryDir, lock.priorMtimeMs)
      return emit({ type: 'failed', runId, error: messageOf(e), snapshotId })
    } finally {
      running = false
    }
  }

  /** The gates as they stand now, for a "Dream now" button: read-only, no throttle consumed. */
  async function gateStatus(): Promise<DreamGateStatus> {
    const t = now()
    const last = await readLastConsolidatedAt(deps.memoryDir)
    const minHours = deps.minHours ?? DREAM_DEFAULTS.minHours
    const minSessions = deps.minSessions ?? DREAM_DEFAULTS.minSessions
    const sessions = await sessionsTouchedSince(deps.transcriptDir, last)
    const enabled = deps.enabled()
    const hours = (t - last) / 3_600_000
    const gates: DreamGateStatus['gates'] = [
      { gate: 'disabled', ok: enabled.ok, detail: enabled.ok ? 'on' : (enabled.reason ?? 'off') },
      {
        gate: 'too_soon',
        ok: hours >= minHours,
        detail: last
          ? `last consolidation ${ago(t - last)} (needs ${span(minHours * 3_600_000)})`
          : 'never consolidated',
      },
      {
        gate: 'not_enough_sessions',
        ok: sessions.length >= minSessions,
        detail: `${count(sessions.length, 'session')} since then (needs ${minSessions})`,
      },
      {
        gate: 'needs_model',
        ok: Boolean(deps.client),
        detail: deps.client ? 'model configured' : 'needs a model',
      },
      { gate: 'locked', ok: !running, detail: running ? 'a consolidation is running' : 'free' },
    ]
    return { gates, lastConsolidatedAt: last || undefined, running, sessions: sessions.length }
  }

  return { executeAutoDream, gateStatus }
}

export interface DreamGateStatus {
  gates: { gate: DreamGate; ok: boolean; detail: string }[]
  lastConsolidatedAt?: number
  running: boolean
  sessions: number
}
