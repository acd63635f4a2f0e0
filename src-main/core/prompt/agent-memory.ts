import { buildMemoryPrompt } from './build-memory-lines.js'
import type { AgentMemoryScope } from '../paths/team-agent-paths.js'

const SCOPE_TEXT: Record<AgentMemoryScope, string> = {
  user: 'This memory belongs to you as this kind of agent across all projects.',
  project: 'This memory is specific to this project and is checked in with it.',
  local: 'This memory is specific to this project on this machine and is not checked in.',
}

/** A subagent's own memory: separate per agent type, files written directly, no index step. */
export function buildAgentMemoryPrompt(
  agentType: string,
  scope: AgentMemoryScope,
  memoryDir: string,
): string {
  return buildMemoryPrompt({
    displayName: `agent memory (${agentType})`,
    memoryDir,
    skipIndex: true,
    indexContent: null,
    extraGuidelines: [SCOPE_TEXT[scope]],
  })
}
