import { messageOf } from '../../../src-shared/errors.js'
import { type ClientMemoryEnvValues, withClientMemoryEnv } from '../../../src-shared/client-memory-env.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { listenForAgentJobs } from '../../host/integrations/agent-socket.js'
import { cachedScan, termCacheFor } from '../../host/memories/memory-caches.js'
import { cliJobHandlers } from '../../host/app/cli-answers.js'
import { promptJobReply, recallForPrompt } from '../../host/previews/prompt-recall.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { selectorTimeoutMs } from '../../host/previews/selector-deadline.js'
import { ensurePrivateAppDataDir } from '../../host/settings/data-dir.js'
import { createProjectContext } from '../../host/settings/project.js'
import { getProjectTranscriptDir } from '../../core/paths/team-agent-paths.js'
import { SessionWatcher } from '../../core/sessions/session-watcher.js'
import { createExtractionService } from '../../host/runs/extraction.js'
import { modelRuntimeFor } from '../../host/settings/model-runtime.js'
import type { CliIO } from '../io.js'
import { describeExtractionEvent } from './extract.js'
import { verifiedTimesFor } from '../../host/previews/staleness-basis.js'

/** Follows the project's Claude Code sessions and extracts at each turn end until the signal aborts. */
export async function watchCommand(ctx: ProjectContext, io: CliIO, signal: AbortSignal): Promise<number> {
  const dataDir = ensurePrivateAppDataDir(ctx)
  const dir = getProjectTranscriptDir(ctx)
  const { client } = modelRuntimeFor(ctx)
  const extractor = createExtractionService(ctx, {
    client,
    onEvent: (e) => io.stdout(describeExtractionEvent(e) + '\n'),
  })
  const watcher = new SessionWatcher(dir, {
    debounceMs: Number(ctx.env.MEMDIR_WATCH_DEBOUNCE_MS) || 500,
    idleMs: Number(ctx.env.MEMDIR_TURN_IDLE_MS) || undefined,
    onTurnEnded: (e) => {
      io.stdout(`turn ended in session ${e.sessionId}\n`)
      void extractor.executeExtractMemories({
        messages: e.messages,
        sessionId: e.sessionId,
        clientSaved: e.clientSaved,
      })
    },
    onError: (e) => io.stderr(`watch: ${messageOf(e)}\n`),
  })
  await watcher.start()
  // Claude Code's Stop hook hands this project's finished turns here while `watch` runs.
  const memoryDir = getAutoMemPath(ctx)
  // A hook's job in the client's environment (client-memory-env.ts): its memory dir and switches.
  const jobCtx = (cwd: string, env: ClientMemoryEnvValues | undefined) =>
    createProjectContext({ cwd, env: withClientMemoryEnv(ctx.env, env) })
  const ours = (job: ProjectContext) => getAutoMemPath(job) === memoryDir
  const elsewhere = { accepted: false, reason: 'watching another project' }
  // Kept for the life of the watch: a prompt's recall reuses the terms read for the last one.
  const termCache = termCacheFor(ctx, memoryDir)
  const socket = await listenForAgentJobs(dataDir, {
    turnEnded: async (job) => {
      if (!ours(jobCtx(job.projectRoot, job.env))) return elsewhere
      await watcher.turnEnded(job.transcriptPath)
      return { accepted: true }
    },
    prompt: async (job) => {
      const asked = jobCtx(job.input.cwd, job.env)
      if (!ours(asked)) return elsewhere
      return promptJobReply(
        await recallForPrompt({ ...ctx, env: asked.env }, job.input, {
          scan: cachedScan(ctx, Infinity),
          termCache,
          client,
          selectorTimeoutMs: selectorTimeoutMs(ctx.env),
        }),
      )
    },
    ...cliJobHandlers(
      () => ({
        memoryDir,
        list: (limit) => cachedScan(ctx, limit)(memoryDir),
        termCache,
        scanner: scannerFor(ctx),
        projectRoot: (cwd) => createProjectContext({ cwd, env: ctx.env }).projectRoot,
        verifiedTimes: verifiedTimesFor(ctx, memoryDir),
      }),
      elsewhere,
    ),
  }).catch((e: unknown) => {
    io.stderr(`watch: hooks cannot hand turns to this process (${messageOf(e)})\n`)
    return undefined
  })
  io.stdout(
    `watching ${dir} (Ctrl-C to stop)${client ? '' : ' — no model configured: extraction will be skipped'}\n`,
  )
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    signal.addEventListener('abort', () => resolve(), { once: true })
  })
  await socket?.close()
  await watcher.close()
  const drained = await extractor.drainPendingExtraction()
  if (!drained) io.stderr('watch: an extraction was still running at exit\n')
  return 0
}
