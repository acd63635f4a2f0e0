import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { cachedScan, termIndexFor } from '../../host/memories/memory-caches.js'
import { modelRuntimeFor } from '../../host/settings/model-runtime.js'
import { recallPreview, type RecallRun } from '../../host/previews/recall-view.js'
import { getAppDataDir } from '../../host/settings/app-data.js'
import { type CliIO, printJson, UsageError } from '../io.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { answerFromRunningApp } from './ask-running-app.js'
import { count } from '../../../src-shared/words.js'
import { stalenessBasisFor } from '../../host/previews/staleness-basis.js'

export async function recallCommand(
  ctx: ProjectContext,
  io: CliIO,
  query: string | undefined,
  recentTools: string | undefined,
  json: boolean,
): Promise<number> {
  if (!query?.trim()) throw new UsageError('recall needs a query: memdir recall "<query>"')
  const { client } = modelRuntimeFor(ctx)
  const tools = recentTools
    ? recentTools
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : []
  const memoryDir = getAutoMemPath(ctx)
  // With no model, a running app ranks from its own index; a model call is this command's own.
  const result =
    (!client
      ? await answerFromRunningApp<RecallRun>(
          { type: 'recall', cwd: ctx.projectRoot, memoryDir, query, recentTools: tools },
          getAppDataDir(ctx),
        )
      : undefined) ??
    (await recallPreview(memoryDir, query, {
      client,
      recentTools: tools,
      staleness: stalenessBasisFor(ctx, memoryDir),
      termCache: termIndexFor(ctx, memoryDir),
      scan: cachedScan(ctx, Infinity),
      scanner: scannerFor(ctx),
    }))
  if (json) {
    printJson(io, result)
    return result.error ? 1 : 0
  }
  const out = [result.mode === 'offline' ? `[${result.note}]` : `[model: ${client?.config.selectorModel}]`]
  if (result.error) out.push(`recall failed: ${result.error}`)
  out.push(`${result.memories.length} of ${count(result.candidates, 'memory', 'memories')} selected`)
  if (result.injections.length) out.push('', ...result.injections)
  io.stdout(out.join('\n') + '\n')
  return result.error ? 1 : 0
}
