import { join, sep } from 'node:path'
import { getClaudeConfigDir } from './base-dir.js'
import { getAutoMemBase, getAutoMemPath, getRealProjectRoot } from './auto-mem-path.js'
import type { ProjectContext } from './context.js'
import { projectDirName, sanitizeAgentTypeForPath } from './sanitize.js'

export const TEAM_DIRNAME = 'team'

/** Always a subdir of the auto memory dir, so there is no team-only layout. */
export function getTeamMemPath(ctx: ProjectContext): string {
  return (join(getAutoMemPath(ctx), TEAM_DIRNAME) + sep).normalize('NFC')
}

export type AgentMemoryScope = 'user' | 'project' | 'local'

/** Per-agent-type memory for subagents (SPEC §4, §10). No MEMORY.md index step. */
export function getAgentMemoryDir(ctx: ProjectContext, agentType: string, scope: AgentMemoryScope): string {
  const type = sanitizeAgentTypeForPath(agentType)
  let dir: string
  switch (scope) {
    case 'user':
      dir = join(getClaudeConfigDir(ctx), 'agent-memory', type)
      break
    case 'project':
      dir = join(ctx.projectRoot, '.claude', 'agent-memory', type)
      break
    case 'local': {
      const remote = ctx.env.CLAUDE_CODE_REMOTE_MEMORY_DIR
      dir = remote
        ? join(
            remote,
            'projects',
            projectDirName(join(remote, 'projects'), getAutoMemBase(ctx)),
            'agent-memory-local',
            type,
          )
        : join(ctx.projectRoot, '.claude', 'agent-memory-local', type)
      break
    }
  }
  return (dir + sep).normalize('NFC')
}

/** Claude Code's transcript dir for this project: `<config>/projects/<sanitized real cwd>/`. */
export function getProjectTranscriptDir(ctx: ProjectContext): string {
  const projects = join(getClaudeConfigDir(ctx), 'projects')
  return join(projects, projectDirName(projects, getRealProjectRoot(ctx)))
}
