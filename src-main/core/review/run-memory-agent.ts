import type Anthropic from '@anthropic-ai/sdk'
import type { RecordedWrite } from '../store/recorded-write.js'
import { runAgentLoop, type AgentLoopResult } from '../model/agent-loop.js'
import type { CacheSafeParams } from '../model/cache-safe.js'
import type { ModelClient } from '../model/client.js'
import { createAutoMemCanUseTool } from '../model/permissions.js'
import { MEMORY_AGENT_TOOLS } from '../model/tools/index.js'
import type { ToolContext } from '../model/tools/types.js'
import { createOverlayTools, type ProposedFile } from './overlay-tools.js'
import type { ProposalStore } from './proposals.js'

export interface ReviewSetting {
  enabled: () => boolean
  proposals: ProposalStore
}

/**
 * The forked memory agent shared by extraction and dream: memory-dir-only writes, read-only Bash,
 * and in review mode an overlay so that writes become a proposal instead of files.
 */
export async function runMemoryAgent(opts: {
  client: ModelClient
  base: CacheSafeParams
  prompt: Anthropic.MessageParam
  memoryDir: string
  maxTurns: number
  cwd: string
  review?: ReviewSetting
  /** The run's recorded write: its Write/Edit land in history as this run's, exactly. */
  record?: RecordedWrite
  /** The stamps the user's client puts on the memories it writes (ToolContext.stamp). */
  stamp?: ToolContext['stamp']
}): Promise<{ result: AgentLoopResult; proposed?: ProposedFile[] }> {
  const overlay = opts.review?.enabled() ? createOverlayTools(opts.memoryDir, MEMORY_AGENT_TOOLS) : undefined
  const result = await runAgentLoop({
    client: opts.client,
    base: opts.base,
    messages: [opts.prompt],
    tools: overlay?.tools ?? MEMORY_AGENT_TOOLS,
    canUseTool: createAutoMemCanUseTool(opts.memoryDir),
    maxTurns: opts.maxTurns,
    cwd: opts.cwd,
    record: opts.record,
    stamp: opts.stamp,
  })
  return { result, proposed: overlay ? await overlay.changes() : undefined }
}
