import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAutoDream } from '../src-main/core/dream/auto-dream.js'
import { lockPath } from '../src-main/core/dream/lock.js'
import { clearAutoMemPathCache, resolveAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { SyncBase } from '../src-main/core/team/sync-base.js'
import { cliSession } from './helpers/cli.js'
import { sandbox, tempDir, writeFile } from './helpers/temp-env.js'

/**
 * A file that is there but cannot be read is reported, never taken for a missing one: a managed
 * settings file, the team sync base, the consolidation lock. (Tests run as root, who reads any
 * mode, so "unreadable" is made of what even root cannot read: a directory, a symlink loop.)
 */

beforeEach(() => clearAutoMemPathCache())

describe('an unreadable file is reported, not treated as missing', () => {
  it('a managed-policy settings file that cannot be read shows in memdir path and the workspace', async () => {
    const sb = sandbox()
    const policy = join(sb.root, 'policy', 'managed-settings.json')
    mkdirSync(policy, { recursive: true }) // a directory where the file should be: EISDIR
    const env = { ...sb.env, MEMDIR_POLICY_SETTINGS: policy }
    const r = resolveAutoMemPath({ ...sb.ctx(), env, policySettingsPath: policy })
    expect(r.rejected).toEqual([
      expect.objectContaining({
        source: 'settings:policy',
        reason: expect.stringMatching(/cannot read it: .*EISDIR/),
      }),
    ])
    const run = cliSession(env, sb.project)
    expect(await run.run(['path'])).toBe(0)
    expect(run.io.stdout).toMatch(/rejected: settings:policy .*cannot read it/)
  })

  it('a corrupt team sync base fails the sync with where it is and what to do, never "never synced"', async () => {
    const file = writeFile(join(tempDir(), 'base.json'), '{"keys": {"a.md": "sha256:')
    await expect(new SyncBase(file).load()).rejects.toThrow(
      /team sync state .* is corrupt .*delete it and sync again/,
    )
    // Missing is the one case that means "never synced".
    expect(await new SyncBase(join(tempDir(), 'none.json')).load()).toEqual(new Map())
  })

  it('a consolidation lock that cannot be read keeps the time gate closed', async () => {
    const memoryDir = tempDir() + '/'
    // A symlink loop: stat fails (ELOOP) for everyone.
    symlinkSync(lockPath(memoryDir) + '-other', lockPath(memoryDir))
    symlinkSync(lockPath(memoryDir), lockPath(memoryDir) + '-other')
    const dream = createAutoDream({
      memoryDir,
      transcriptDir: tempDir(),
      snapshotDir: tempDir(),
      enabled: () => ({ ok: true }),
      systemPrompt: async () => '',
    })
    const outcome = await dream.executeAutoDream()
    expect(outcome).toMatchObject({
      type: 'blocked',
      gate: 'locked',
      reason: expect.stringMatching(/cannot read .*ELOOP/),
    })
  })
})
