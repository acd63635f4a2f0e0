import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandbox } from '../../../test/helpers/temp-env.js'
import { getAutoMemPath } from './auto-mem-path.js'
import { sanitizePath } from './sanitize.js'
import { getAgentMemoryDir, getTeamMemPath } from './team-agent-paths.js'

describe('team and agent memory paths', () => {
  it('team dir is always <automem>/team/', () => {
    const sb = sandbox()
    expect(getTeamMemPath(sb.ctx())).toBe(getAutoMemPath(sb.ctx()) + 'team/')
  })

  it('agent memory has three scopes and a sanitized agent type', () => {
    const sb = sandbox()
    const ctx = sb.ctx()
    expect(getAgentMemoryDir(ctx, 'plug:planner', 'user')).toBe(
      join(sb.configDir, 'agent-memory', 'plug-planner') + '/',
    )
    expect(getAgentMemoryDir(ctx, 'planner', 'project')).toBe(
      join(sb.project, '.claude', 'agent-memory', 'planner') + '/',
    )
    expect(getAgentMemoryDir(ctx, 'planner', 'local')).toBe(
      join(sb.project, '.claude', 'agent-memory-local', 'planner') + '/',
    )
  })

  it('local scope moves under the remote memory dir when set', () => {
    const sb = sandbox({ CLAUDE_CODE_REMOTE_MEMORY_DIR: '/mnt/remote' })
    expect(getAgentMemoryDir(sb.ctx(), 'planner', 'local')).toBe(
      join('/mnt/remote', 'projects', sanitizePath(sb.project), 'agent-memory-local', 'planner') + '/',
    )
  })
})
