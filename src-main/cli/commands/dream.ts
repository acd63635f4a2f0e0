import type { ProjectContext } from '../../core/paths/context.js'
import { createDreamService } from '../../host/runs/dream.js'
import { historyForCli } from '../../host/history/recording.js'
import { modelRuntimeFor } from '../../host/settings/model-runtime.js'
import { type CliIO, printJson } from '../io.js'

export async function dreamCommand(
  ctx: ProjectContext,
  io: CliIO,
  force: boolean,
  json: boolean,
): Promise<number> {
  const { client } = modelRuntimeFor(ctx)
  const history = await historyForCli(ctx)
  const outcome = await createDreamService(ctx, {
    client,
    recordFor: (runId) => history.writer({ author: 'dream', runId }),
  }).executeAutoDream({ force })
  if (json) {
    printJson(io, outcome)
  } else if (outcome.type === 'blocked') {
    io.stdout(`not run: ${outcome.reason}\n`)
  } else if (outcome.type === 'improved') {
    const lines = outcome.files.map((f) => `  ${f.change.padEnd(8)} ${f.path}`)
    io.stdout([outcome.summary, ...lines, `snapshot: ${outcome.snapshotId}`].join('\n') + '\n')
  }
  if (outcome.type === 'failed') {
    io.stderr(`memdir: consolidation failed: ${outcome.error}\n`)
    return 1
  }
  return 0
}
