import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { getAutoMemoryEnablement, getTeamMemoryEnablement } from './enablement.js'

describe('isAutoMemoryEnabled', () => {
  const withEnv = (env: Record<string, string>) => {
    const sb = sandbox(env)
    return { sb, e: () => getAutoMemoryEnablement(sb.ctx()) }
  }

  it('is on by default', () => {
    expect(withEnv({}).e()).toEqual({ enabled: true, reason: 'default' })
  })

  it.each(['1', 'true'])('CLAUDE_CODE_DISABLE_AUTO_MEMORY=%s turns it off', (v) => {
    expect(withEnv({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: v }).e().enabled).toBe(false)
  })

  it.each(['0', 'false'])(
    'CLAUDE_CODE_DISABLE_AUTO_MEMORY=%s forces it on over bare mode and settings',
    (v) => {
      const { sb, e } = withEnv({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: v, CLAUDE_CODE_SIMPLE: '1' })
      writeFile(join(sb.configDir, 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }))
      expect(e().enabled).toBe(true)
    },
  )

  it('bare mode turns it off', () => {
    expect(withEnv({ CLAUDE_CODE_SIMPLE: '1' }).e()).toMatchObject({
      enabled: false,
      reason: expect.stringContaining('bare'),
    })
  })

  it('remote mode needs CLAUDE_CODE_REMOTE_MEMORY_DIR', () => {
    expect(withEnv({ CLAUDE_CODE_REMOTE: '1' }).e().enabled).toBe(false)
    expect(withEnv({ CLAUDE_CODE_REMOTE: '1', CLAUDE_CODE_REMOTE_MEMORY_DIR: '/mnt/mem' }).e().enabled).toBe(
      true,
    )
  })

  it('a project may opt out in its settings.json', () => {
    const { sb, e } = withEnv({})
    writeFile(join(sb.project, '.claude', 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }))
    expect(e()).toMatchObject({ enabled: false, reason: 'autoMemoryEnabled=false in project settings' })
  })

  it('local settings override the project opt-out', () => {
    const { sb, e } = withEnv({})
    writeFile(join(sb.project, '.claude', 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }))
    writeFile(join(sb.project, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryEnabled: true }))
    expect(e().enabled).toBe(true)
  })
})

describe('isTeamMemoryEnabled', () => {
  it('is off by default, on with its switch, and never on when auto memory is off', () => {
    expect(getTeamMemoryEnablement(sandbox().ctx()).enabled).toBe(false)
    expect(getTeamMemoryEnablement(sandbox({ MEMDIR_TEAM_MEMORY: '1' }).ctx()).enabled).toBe(true)
    const off = sandbox({ MEMDIR_TEAM_MEMORY: '1', CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })
    expect(getTeamMemoryEnablement(off.ctx()).enabled).toBe(false)
  })
})
