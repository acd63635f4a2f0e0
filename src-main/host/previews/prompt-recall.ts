import { cutText } from '../../../src-shared/unicode.js'
import { dirname, join, relative, sep } from 'node:path'
import { isFsError, MemdirError, rethrowUnless } from '../../../src-shared/errors.js'
import { count } from '../../../src-shared/words.js'
import type { PromptHookOutput, UserPromptSubmitHook } from '../../../src-shared/hook-input.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { getAutoMemoryEnablement } from '../../core/paths/enablement.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import type { ModelClient } from '../../core/model/client.js'
import { RecallSession } from '../../core/recall/recall-session.js'
import type { TermSource } from '../../core/recall/term-source.js'
import { clientOwnMemory, recalledInTranscript } from '../../core/sessions/client-memory.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import type { Scanner } from '../../core/store/scan.js'
import { activityFileFor, appendActivity, newActivityItem } from '../activity/activity-store.js'
import { getAppDataDir } from '../settings/app-data.js'
import type { AgentReply } from '../integrations/agent-socket.js'
import { loadRecallState, pruneRecallStates, saveRecallState } from './recall-state.js'
import { stalenessBasisFor } from './staleness-basis.js'

export interface PromptRecallResult {
  output?: PromptHookOutput
  /** Why nothing was added (for the log). */
  skipped?: string
}

/** The agent socket's answer to a prompt hook: the hook's output line ('' for none), and why not. */
export function promptJobReply(r: PromptRecallResult): AgentReply {
  return { accepted: true, value: r.output ? JSON.stringify(r.output) : '', reason: r.skipped }
}

export interface PromptRecallDeps {
  /** Every memory's header, newest first (a hook's header-cached scan, or the app's index). */
  scan: (memoryDir: string) => Promise<readonly MemoryHeader[]>
  termCache?: TermSource
  scanner?: Scanner
  client?: ModelClient
  /** The model selector's deadline; the offline ranker answers after it. */
  selectorTimeoutMs: number
}

/**
 * Recall for one prompt of a Claude Code session, minus what the session already surfaced (by
 * Memdir or by the client itself) and within its 60 KiB budget: the hook output, or why nothing.
 * A hook process runs it, or the running app on the hook's behalf, from its own index.
 */
export async function recallForPrompt(
  ctx: ProjectContext,
  input: UserPromptSubmitHook,
  deps: PromptRecallDeps,
): Promise<PromptRecallResult> {
  const auto = getAutoMemoryEnablement(ctx)
  if (!auto.enabled) return { skipped: `auto memory is off: ${auto.reason}` }
  // A client that recalls memories itself does so for this very prompt, after this hook: what the
  // hook added would be a second recall of the same memories (its earlier recalls are in the
  // transcript, this one is not yet). The prompt is left to it, as a turn it extracts itself is.
  if ((await clientOwnMemory(ctx)).recalls) return { skipped: 'Claude Code recalls memories itself' }
  const memoryDir = getAutoMemPath(ctx)
  const stateDir = join(getAppDataDir(ctx), 'hooks', 'recall', sanitizePath(memoryDir))
  const state = await loadRecallState(stateDir, input.session_id)
  const { client } = deps
  const session = new RecallSession(memoryDir, {
    client,
    // The selector's hard deadline; the offline ranker (no client) needs none.
    signal: client ? AbortSignal.timeout(deps.selectorTimeoutMs) : undefined,
    offlineFallback: true,
    staleness: stalenessBasisFor(ctx, memoryDir),
    termCache: deps.termCache,
    scan: deps.scan,
    scanner: deps.scanner,
  })
  // What the client recalled itself in this session is in its context already.
  // A transcript that cannot be read (gone, a directory, a FIFO: see transcript-file.ts) only
  // means nothing is known to be in context yet; recall goes on.
  // Only the lines appended since the last prompt are read: the ones before are in `surfaced`.
  // The client took the session up again in a new process (`--resume`, `--continue`): it rebuilt
  // the context from the transcript, so only what the transcript records is in it. A client that
  // keeps no hook context there (2.1.88) lost what the hook added before: that may come again.
  const restarted = !!input.memdir_client && !!state.client && input.memdir_client !== state.client
  const readFrom = restarted ? undefined : state.transcript
  const byClient = await recalledInTranscript(input.transcript_path, readFrom).catch((e: unknown) => {
    rethrowUnless(isFsError(e) || e instanceof MemdirError, e)
    return { paths: [], compacted: false, mark: readFrom }
  })
  // A compaction since the last prompt replaced what was recalled before with a summary: those
  // memories may come again, and the session's budget starts anew (as the client's own recall,
  // which counts what its context holds).
  if (!byClient.compacted && !restarted) {
    state.surfaced.forEach((p) => session.surfaced.add(p))
    session.injectedBytes = state.injectedBytes
  }
  byClient.paths.forEach((p) => session.surfaced.add(p))
  // A forked session's first prompt, before its transcript exists: its context holds what the
  // session it copied had put in context, as that session's transcript records it (the newer
  // clients record hook context there and copy it into the fork; 2.1.88 keeps it in neither).
  const origin = byClient.mark ? undefined : forkedFrom(input)
  if (origin) {
    const copied = await recalledInTranscript(origin).catch(() => ({ paths: [] }))
    copied.paths.forEach((p) => session.surfaced.add(p))
  }
  // Only the model selector reads which tools the agent just used: the offline ranker needs no
  // transcript, so a hook without a model never parses the transcript's tail.
  const recentTools = client
    ? await import('../../core/sessions/recent-tools.js')
        .then((m) => m.recentToolsInTranscript(input.transcript_path))
        .catch(() => [])
    : []
  const outcome = await session.surface(input.prompt, recentTools)
  const save = async () => {
    saveRecallState(stateDir, input.session_id, {
      surfaced: [...session.surfaced],
      injectedBytes: session.injectedBytes,
      ...(byClient.mark ? { transcript: byClient.mark } : {}),
      ...(input.memdir_client ? { client: input.memdir_client } : {}),
    })
    if (state.fresh) await pruneRecallStates(stateDir) // once per session is often enough
  }
  if (outcome.skipped || !outcome.injections.length) {
    // Nothing injected, but the transcript was read further: the next prompt starts from there.
    if (
      (byClient.mark && byClient.mark.offset !== state.transcript?.offset) ||
      input.memdir_client !== state.client
    )
      await save()
    return { skipped: outcome.skipped ? outcome.reason : 'no relevant memory' }
  }
  await save()
  const files = outcome.injected.map((p) => relative(memoryDir, p).split(sep).join('/'))
  await appendActivity(
    activityFileFor(ctx, memoryDir),
    newActivityItem({
      kind: 'recall',
      level: 'info',
      source: 'hook',
      title: `Recalled ${count(files.length, 'memory', 'memories')} for a prompt`,
      detail: `${cutText(input.prompt, 200)}${input.prompt.length > 200 ? '…' : ''}${
        outcome.result.mode === 'offline' ? ` (${outcome.result.note})` : ''
      }`,
      files,
    }),
  )
  return {
    output: {
      hookSpecificOutput: {
        hookEventName: 'UserPromptSubmit',
        additionalContext: outcome.injections.join('\n\n'),
      },
    },
  }
}

/**
 * The transcript the hook's process found this session forked from (`memdir_fork_of`): a session
 * of the same project, never the session itself.
 */
function forkedFrom(input: UserPromptSubmitHook): string | undefined {
  const origin = input.memdir_fork_of
  return origin &&
    origin.endsWith('.jsonl') &&
    origin !== input.transcript_path &&
    dirname(origin) === dirname(input.transcript_path)
    ? origin
    : undefined
}
