import { savedByClient } from '../../core/sessions/client-memory.js'
import { MemdirError } from '../../../src-shared/errors.js'
import { readTranscriptText } from '../../core/sessions/transcript-file.js'
import { existsSync } from 'node:fs'
import { dirname, sep } from 'node:path'
import type { ExtractionEvent } from '../../core/extract/extract-memories.js'
import type { RecordedWrite } from '../../core/store/recorded-write.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { ProposalStore } from '../../core/review/proposals.js'
import { mainChain, parseTranscriptLines, toMessages, turnState } from '../../core/sessions/transcript.js'
import { extractionActivity } from '../../host/activity/activity-items.js'
import { activityFileFor, appendActivity, newActivityItem } from '../../host/activity/activity-store.js'
import { proposalsDirFor } from '../../host/settings/app-data.js'
import { loadEffectiveConfig } from '../../host/settings/config.js'
import { createExtractionService } from '../../host/runs/extraction.js'
import { historyForCli } from '../../host/history/recording.js'
import { modelRuntimeFor } from '../../host/settings/model-runtime.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The hook can fire a moment before the client's last lines reach the file: wait until it is quiet. */
async function settledTranscript(path: string, maxWaitMs = 3000) {
  const end = Date.now() + maxWaitMs
  let last = -1
  for (;;) {
    const text = await readTranscriptText(path)
    if (text === undefined) throw new MemdirError('NOT_FOUND', `no transcript at ${path}`)
    const size = Buffer.byteLength(text)
    const entries = parseTranscriptLines(text).entries
    if ((size === last && turnState(entries).state !== 'open') || Date.now() > end) return entries
    last = size
    await sleep(250)
  }
}

/** How long a background extraction may run in all (lock wait included) before it gives up. */
export const DEFAULT_EXTRACT_JOB_TIMEOUT_MS = 5 * 60_000

/**
 * Resolves (with why) when a detached run must stop although its work is not done: its time is
 * up, or the memory dir it writes to is gone (with the project dir that held it). The run's
 * cursor then stays where it was: the next turn's extraction takes the messages up again.
 */
export function extractionLeash(
  memoryDir: string,
  transcriptPath: string,
  timeoutMs: number,
  pollMs = 1000,
): { stopped: Promise<string>; release: () => void } {
  const dir = memoryDir.replace(/[\\/]+$/, '')
  // What to watch: the memory dir, else (not written to yet) the project dir it will be in.
  const watched = [dir, dirname(dir), transcriptPath].find((p) => existsSync(p)) ?? dir
  let timer: NodeJS.Timeout | undefined
  let poll: NodeJS.Timeout | undefined
  const stopped = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`gave up after ${Math.round(timeoutMs / 1000)} s`), timeoutMs)
    poll = setInterval(() => {
      if (!existsSync(watched)) resolve(`${watched} is gone`)
    }, pollMs)
  })
  return {
    stopped,
    release: () => {
      clearTimeout(timer)
      clearInterval(poll)
    },
  }
}

/**
 * `memdir hook extract`: the background run a Stop hook starts when no app is running. It
 * continues the session from the shared cursor, under the cross-process extraction lock, and
 * reports to the workspace's activity feed like the app would.
 */
export async function runExtractionJob(
  ctx: ProjectContext,
  transcriptPath: string,
  sessionId: string,
  log: (line: string) => void,
): Promise<ExtractionEvent[]> {
  const memoryDir = getAutoMemPath(ctx)
  const entries = await settledTranscript(transcriptPath)
  const messages = toMessages(mainChain(entries))
  const config = loadEffectiveConfig(ctx)
  // History catches up with the dir at the run's first write, under the extraction lock: a Stop and
  // a SessionEnd each start a job, and the second one's catch-up, run at once, recorded what the
  // first had just written (and not yet recorded) as someone else's change.
  let history: ReturnType<typeof historyForCli> | undefined
  const recordFor =
    (runId: string): RecordedWrite =>
    async (absPath, write) => {
      history ??= historyForCli(ctx)
      return (await history).writer({ author: 'extraction', runId })(absPath, write)
    }
  const feed = activityFileFor(ctx, memoryDir)
  const label = ctx.projectRoot.split(sep).filter(Boolean).pop() ?? ctx.projectRoot
  const events: ExtractionEvent[] = []
  const pending: Promise<void>[] = []
  const extractor = createExtractionService(ctx, {
    client: modelRuntimeFor(ctx).client,
    config,
    recordFor,
    review: {
      enabled: () => config.reviewMode.value,
      proposals: new ProposalStore(proposalsDirFor(ctx, memoryDir)),
    },
    onEvent: (e) => {
      events.push(e)
      log(`extraction ${e.type}${'reason' in e ? `: ${e.reason}` : ''}${'error' in e ? `: ${e.error}` : ''}`)
      const item = extractionActivity(e, label, 'runId' in e ? e.runId : undefined)
      if (item) pending.push(appendActivity(feed, newActivityItem({ ...item, source: 'hook' })))
    },
  })
  await extractor.executeExtractMemories({ messages, sessionId, clientSaved: savedByClient(entries) })
  await extractor.drainPendingExtraction()
  await Promise.all(pending)
  return events
}
