import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandbox, tempDir, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache } from '../core/paths/auto-mem-path.js'
import { getTeamMemPath } from '../core/paths/team-agent-paths.js'
import { cliSession, until } from '../../test/helpers/cli.js'

beforeEach(() => clearAutoMemPathCache())

describe('memdir team-server + memdir sync', () => {
  it('serves, issues repo-scoped tokens, and two projects sync through it', async () => {
    const data = join(tempDir(), 'team.sqlite')
    const admin = cliSession({ HOME: tempDir() }, '/')
    expect(await admin.run(['team-server', 'token', 'add', '--repo', 'acme/shop', '--data', data])).toBe(0)
    const token = admin.io.stdout.trim()
    expect(token).toMatch(/^tmt_/)

    const controller = new AbortController()
    const server = cliSession({ HOME: tempDir() }, '/', controller.signal)
    const serving = server.run(['team-server', '--port', '0', '--data', data])
    await until(() => server.io.stdout.includes('team memory server on'))
    const url = /on (http:\/\/\S+)/.exec(server.io.stdout)![1]!

    // a real git project whose origin names the repo
    const a = sandbox({ MEMDIR_TEAM_MEMORY: '1', MEMDIR_TEAM_URL: url, MEMDIR_TEAM_TOKEN: token })
    execFileSync('git', ['init', '-q'], { cwd: a.project })
    execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:acme/shop.git'], { cwd: a.project })
    writeFile(
      join(getTeamMemPath(a.ctx()), 'testing.md'),
      '---\nname: Testing\ndescription: real DB\ntype: feedback\n---\nx\n',
    )
    const pushA = cliSession(a.env, a.project)
    expect(await pushA.run(['sync', '--push'])).toBe(0)
    expect(pushA.io.stdout).toContain('acme/shop @ ')
    expect(pushA.io.stdout).toContain('pushed 1')

    const b = sandbox({
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: url,
      MEMDIR_TEAM_TOKEN: token,
      MEMDIR_TEAM_REPO: 'acme/shop',
    })
    const pullB = cliSession(b.env, b.project)
    expect(await pullB.run(['sync', '--json'])).toBe(0)
    expect(JSON.parse(pullB.io.stdout)).toMatchObject({
      repo: 'acme/shop',
      pulled: ['testing.md'],
      pushed: [],
    })
    expect(readFileSync(join(getTeamMemPath(b.ctx()), 'testing.md'), 'utf8')).toContain('real DB')

    const other = cliSession({ ...b.env, MEMDIR_TEAM_REPO: 'acme/other' }, b.project)
    expect(await other.run(['sync'])).toBe(1)
    expect(other.io.stderr).toContain('403')

    controller.abort()
    expect(await serving).toBe(0)
  })

  it('sync explains what is missing', async () => {
    const sb = sandbox()
    const r = cliSession(sb.env, sb.project)
    expect(await r.run(['sync'])).toBe(1)
    expect(r.io.stderr).toContain('team memory is off')
    const on = cliSession({ ...sb.env, MEMDIR_TEAM_MEMORY: '1' }, sb.project)
    expect(await on.run(['sync'])).toBe(1)
    expect(on.io.stderr).toContain('no team server configured')
    expect(await on.run(['sync', '--pull', '--push'])).toBe(2)
  })
})

describe('memdir dream', () => {
  it('reports the gate that blocked it', async () => {
    const sb = sandbox()
    const r = cliSession(sb.env, sb.project)
    expect(await r.run(['dream'])).toBe(0)
    expect(r.io.stdout).toContain('not run: 0 sessions since the last consolidation (needs 5)')
    expect(await r.run(['dream', '--force', '--json'])).toBe(0)
    expect(JSON.parse(r.io.stdout.slice(r.io.stdout.indexOf('{')))).toMatchObject({ gate: 'needs_model' })
  })
})
