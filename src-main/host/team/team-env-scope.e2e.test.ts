import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SettingsView, TeamStatus } from '../../../src-shared/types.js'
import { gitRepo } from '../../../test/helpers/git-repo.js'
import { startTeamServer } from '../../../test/helpers/team-server.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache } from '../../core/paths/auto-mem-path.js'
import { getTeamMemPath } from '../../core/paths/team-agent-paths.js'
import { createHost } from '../app/host.js'

const memory = (name: string) => `---\nname: ${name}\ndescription: ${name}\ntype: project\n---\n\n${name}\n`

function project(root: string, origin: string) {
  mkdirSync(root, { recursive: true })
  const repo = gitRepo(root)
  repo.git(['remote', 'add', 'origin', `git@github.com:${origin}.git`])
  return repo.root
}

describe('team server, repo and token set in the environment', () => {
  it('are for the project the app was started in: another project it opens keeps its own team/ and repo', async () => {
    const server = await startTeamServer()
    const token = await server.token('acme/shop')
    const sb = sandbox()
    const shop = project(join(sb.root, 'work', 'shop'), 'acme/shop')
    const other = project(join(sb.root, 'work', 'other'), 'acme/other')
    Object.assign(sb.env, {
      MEMDIR_DATA_DIR: join(sb.root, 'data'),
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: server.url,
      MEMDIR_TEAM_REPO: 'acme/shop',
      MEMDIR_TEAM_TOKEN: token,
    })
    clearAutoMemPathCache()
    const teamOf = (root: string) => getTeamMemPath(sb.ctx({ projectRoot: root }))
    writeFile(join(teamOf(shop), 'checkout.md'), memory('checkout'))
    writeFile(join(teamOf(other), 'unreleased-plan.md'), memory('unreleased plan'))

    const host = await createHost({ env: sb.env, projectRoot: shop, agentSocket: false })
    const call = async <T>(method: string, args?: unknown) => {
      const r = await host.call(method as never, args as never)
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`)
      return r.value as T
    }
    try {
      expect(await call<TeamStatus>('team/syncNow')).toMatchObject({ repo: 'acme/shop', state: 'ready' })
      const stored = async () => [...((await server.store.getRepo('acme/shop'))?.entries.keys() ?? [])]
      expect(await stored()).toEqual(['checkout.md'])

      await call('workspace/open', { projectRoot: other })
      expect(await host.call('team/syncNow', undefined)).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining('no team server configured for this project') },
      })
      const status = await call<TeamStatus>('team/status')
      // Its own repo (its git origin), and no server or token until it is given its own.
      expect(status).toMatchObject({ repo: 'acme/other', tokenSet: false, state: 'not-configured' })
      expect(status.url).toBeUndefined()
      expect(await call<SettingsView>('settings/get')).toMatchObject({
        teamUrl: '',
        teamRepo: '',
        teamTokenSet: false,
        sources: { teamUrl: { source: 'default' }, teamRepo: { source: 'default' } },
      })
      expect(await stored()).toEqual(['checkout.md'])
      expect(readdirSync(teamOf(other))).toEqual(['unreleased-plan.md'])

      // Back in the project it was started in, the environment's values apply again.
      await call('workspace/open', { projectRoot: shop })
      expect(await call<TeamStatus>('team/syncNow')).toMatchObject({ repo: 'acme/shop', tokenSet: true })
      expect(await call<SettingsView>('settings/get')).toMatchObject({
        teamUrl: server.url,
        sources: { teamUrl: { source: 'env' }, teamRepo: { source: 'env' } },
      })
      expect(existsSync(join(teamOf(shop), 'unreleased-plan.md'))).toBe(false)
    } finally {
      await host.close()
    }
  })
})
