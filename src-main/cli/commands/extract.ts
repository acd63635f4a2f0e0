import { count } from '../../../src-shared/words.js'
import { savedByClient } from '../../core/sessions/client-memory.js'
import { readTranscriptText } from '../../core/sessions/transcript-file.js'
import { MemoryCursorStore } from '../../core/extract/cursor-store.js'
import type { ExtractionEvent } from '../../core/extract/extract-memories.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { readTranscriptMessages } from '../../core/sessions/transcript.js'
import { createExtractionService } from '../../host/runs/extraction.js'
import { historyForCli } from '../../host/history/recording.js'
import { modelRuntimeFor } from '../../host/settings/model-runtime.js'
import { type CliIO, printJson, UsageError } from '../io.js'

export function describeExtractionEvent(e: ExtractionEvent): string {
  switch (e.type) {
    case 'started':
      return `extracting from the last ${count(e.newMessageCount, 'message')}${e.trailing ? ' (trailing run)' : ''}…`
    case 'skipped':
      return `skipped: ${e.reason}`
    case 'wrote':
      return `${e.summary}: ${e.paths.join(', ')}`
    case 'failed':
      return `failed: ${e.error}`
    case 'proposed':
      return `proposed for review (${e.proposalId}): ${e.paths.join(', ')}`
  }
}

export async function extractCommand(
  ctx: ProjectContext,
  io: CliIO,
  transcript: string | undefined,
  json: boolean,
  session?: string,
) {
  if (!transcript) throw new UsageError('extract needs --transcript FILE')
  const text = await readTranscriptText(transcript)
  if (text === undefined) throw new UsageError(`no transcript at ${transcript}`)
  const { messages, parsed } = readTranscriptMessages(text)
  const events: ExtractionEvent[] = []
  const { client } = modelRuntimeFor(ctx)
  const history = await historyForCli(ctx)
  const extractor = createExtractionService(ctx, {
    client,
    recordFor: (runId) => history.writer({ author: 'extraction', runId }),
    // With --session the run continues where the app, `watch` or a hook left that session.
    cursors: session ? undefined : new MemoryCursorStore(),
    onEvent: (e) => {
      events.push(e)
      if (!json) io.stdout(describeExtractionEvent(e) + '\n')
    },
  })
  await extractor.executeExtractMemories({
    messages,
    sessionId: session,
    clientSaved: savedByClient(parsed.entries),
  })
  await extractor.drainPendingExtraction()
  if (json) printJson(io, { messages: messages.length, malformedLines: parsed.malformedLines, events })
  else if (parsed.malformedLines.length)
    io.stderr(`note: skipped malformed transcript lines ${parsed.malformedLines.join(', ')}\n`)
  const failed = events.find((e) => e.type === 'failed')
  if (failed && failed.type === 'failed') {
    if (json) io.stderr(`memdir: extraction failed: ${failed.error}\n`)
    return 1
  }
  return 0
}
