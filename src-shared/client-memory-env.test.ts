import { describe, expect, it } from 'vitest'
import { clientMemoryEnv, withClientMemoryEnv } from './client-memory-env.js'

describe("the client's memory-dir variables, sent with a hook's job", () => {
  const app = { HOME: '/home/u', CLAUDE_CONFIG_DIR: '/home/u/.claude-app', MEMDIR_EXTRACTION: '1' }

  it('a hook sends only those variables, and only the set ones', () => {
    expect(
      clientMemoryEnv({ HOME: '/home/u', CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1', ANTHROPIC_API_KEY: 'sk-x' }),
    ).toEqual({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })
  })

  it("the job is answered with the client's values in place of the app's, an unset one unset", () => {
    expect(withClientMemoryEnv(app, { CLAUDE_CODE_SIMPLE: '1' })).toEqual({
      HOME: '/home/u',
      MEMDIR_EXTRACTION: '1',
      CLAUDE_CODE_SIMPLE: '1',
    })
    expect(withClientMemoryEnv(app, {})).toEqual({ HOME: '/home/u', MEMDIR_EXTRACTION: '1' })
  })

  it('a job from an older hook, which sends none, is answered in the app’s environment', () => {
    expect(withClientMemoryEnv(app, undefined)).toBe(app)
  })
})
