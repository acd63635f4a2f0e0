import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandbox, tempDir, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache } from '../core/paths/auto-mem-path.js'
import { getTeamMemPath } from '../core/paths/team-agent-paths.js'
import { cliSession, until } from '../../test/helpers/cli.js'
import { startTeamServer } from '../../test/helpers/team-server.js'

beforeEach(() => clearAutoMemPathCache())

describe('memdir team-server token list|revoke and the server flags', () => {
  it('lists tokens by id (never the token), revokes one, issues expiring ones, refuses limits it cannot keep, and applies --max-entries', async () => {
    const data = join(tempDir(), 'team.sqlite')
    const admin = cliSession({ HOME: tempDir() }, '/')
    const addToken = (repo: string, ...more: string[]) =>
      admin.run(['team-server', 'token', 'add', '--repo', repo, ...more, '--data', data])
    expect(await addToken('acme/shop')).toBe(0)
    const token = admin.io.stdout.trim()
    expect(await addToken('acme/web', '--expires', '30d')).toBe(0)
    admin.io.stdout = ''
    expect(await admin.run(['team-server', 'token', 'list', '--json', '--data', data])).toBe(0)
    const tokens = JSON.parse(admin.io.stdout) as { id: string; repos: string[]; expiresAt?: string }[]
    expect(tokens.map((t) => t.repos)).toEqual([['acme/shop'], ['acme/web']])
    expect(Date.parse(tokens[1]!.expiresAt!) - Date.now()).toBeGreaterThan(29 * 86_400_000)
    expect(admin.io.stdout).not.toContain('tmt_')
    expect(await addToken('a/b', '--expires', 'soon')).toBe(2)
    // No token that is expired as it is printed, and no date past what a date can hold.
    for (const [expires, said] of [
      ['0d', '--expires 0d would print a token that has already expired'],
      ['1000000000d', '--expires 1000000000d is longer than 36,500 days'],
    ]) {
      admin.io.stdout = admin.io.stderr = ''
      expect(await addToken('a/b', '--expires', expires!)).toBe(2)
      expect(admin.io.stderr).toContain(said)
      expect(admin.io.stdout).not.toContain('tmt_')
    }

    // Limits a server cannot keep are refused before it starts: a body is read into one string.
    for (const [flag, value, said] of [
      ['--max-body', String(2 ** 30), '--max-body may be at most 268,435,456'],
      ['--max-body', '99999999999999999999', '--max-body must be a positive whole number'],
      ['--max-entries', '1e400', '--max-entries must be a positive whole number'],
    ]) {
      admin.io.stdout = admin.io.stderr = ''
      expect(await admin.run(['team-server', '--port', '0', '--data', data, flag!, value!])).toBe(2)
      expect(admin.io.stderr).toContain(said)
      expect(admin.io.stdout).not.toContain('team memory server on')
    }

    const controller = new AbortController()
    const server = cliSession({ HOME: tempDir() }, '/', controller.signal)
    const serving = server.run(['team-server', '--port', '0', '--data', data, '--max-entries', '1'])
    await until(() => server.io.stdout.includes('team memory server on'))
    const url = /on (http:\/\/\S+)/.exec(server.io.stdout)![1]!
    const put = (entries: Record<string, string>) =>
      fetch(`${url}/api/claude_code/team_memory?repo=acme/shop`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entries }),
      })
    expect((await put({ 'a.md': 'A' })).status).toBe(200)
    expect((await put({ 'b.md': 'B' })).status).toBe(413)
    // The access log is JSON lines on stdout.
    await until(() => server.io.stdout.includes('"status":413'))
    expect(await admin.run(['team-server', 'token', 'revoke', tokens[0]!.id, '--data', data])).toBe(0)
    expect((await put({ 'a.md': 'A2' })).status).toBe(401)
    controller.abort()
    expect(await serving).toBe(0)
  })
})

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

  it('memdir sync and secret set refuse a team server URL that would send the token in the clear', async () => {
    const env = {
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: 'http://team.example:8080',
      MEMDIR_TEAM_TOKEN: 'tmt_plain',
      MEMDIR_TEAM_REPO: 'acme/shop',
    }
    const a = sandbox(env)
    writeFile(join(getTeamMemPath(a.ctx()), 'x.md'), 'v1\n')
    const sync = cliSession(a.env, a.project)
    expect(await sync.run(['sync'])).toBe(1)
    expect(sync.io.stderr).toContain(
      'http://team.example:8080 would send the team token and every team memory unencrypted',
    )
    const set = cliSession({ HOME: tempDir() }, '/')
    expect(
      await set.run(['secret', 'set', 'team-token', '--url', 'http://team.example', '--repo', 'acme/shop']),
    ).toBe(2)
    expect(set.io.stderr).toContain('--url: http://team.example would send')
  })

  it('a project deep in the file tree syncs a long repo name: its sync state gets a name the file system takes', async () => {
    const server = await startTeamServer()
    const repo = 'my-organization-name/a-fairly-long-repository-name'
    const sb = sandbox({
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: server.url,
      MEMDIR_TEAM_TOKEN: await server.token(repo),
      MEMDIR_TEAM_REPO: repo,
      MEMDIR_DATA_DIR: undefined,
    })
    const deep = join(sb.root, 'work', 'clients-and-projects-'.repeat(8) + 'proj')
    mkdirSync(deep, { recursive: true })
    writeFile(join(getTeamMemPath(sb.ctx({ projectRoot: deep })), 'deploy.md'), 'steps\n')
    const sync = cliSession(sb.env, deep)
    expect(await sync.run(['sync']), sync.io.stderr).toBe(0)
    expect(sync.io.stdout).toContain('pushed 1')
    const again = cliSession(sb.env, deep)
    expect(await again.run(['sync', '--json'])).toBe(0)
    expect(JSON.parse(again.io.stdout)).toMatchObject({ pulled: [], pushed: [], conflicts: [] })
    const names = readdirSync(join(sb.home, '.memdir', 'team-sync'))
    expect(names).toHaveLength(1)
    expect(names[0]!.length).toBeLessThanOrEqual(230)
  })

  it('memdir sync never pulls the server copy over an unpushed local edit; a real conflict keeps the local version in history', async () => {
    const server = await startTeamServer()
    const token = await server.token('acme/shop')
    const env = {
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: server.url,
      MEMDIR_TEAM_TOKEN: token,
      MEMDIR_TEAM_REPO: 'acme/shop',
    }
    const a = sandbox(env)
    const b = sandbox(env)
    const fileA = join(getTeamMemPath(a.ctx()), 'x.md')
    const fileB = join(getTeamMemPath(b.ctx()), 'x.md')
    writeFile(fileA, 'v1\n')
    expect(await cliSession(a.env, a.project).run(['sync'])).toBe(0)
    expect(await cliSession(b.env, b.project).run(['sync'])).toBe(0)
    expect(readFileSync(fileB, 'utf8')).toBe('v1\n')

    // B edits; the server did not change: a pull leaves the edit, the push sends it.
    writeFile(fileB, 'v2 from B\n')
    const pullOnly = cliSession(b.env, b.project)
    expect(await pullOnly.run(['sync', '--pull', '--json'])).toBe(0)
    expect(JSON.parse(pullOnly.io.stdout)).toMatchObject({ pulled: [], pending: ['x.md'] })
    expect(readFileSync(fileB, 'utf8')).toBe('v2 from B\n')
    expect(await cliSession(b.env, b.project).run(['sync'])).toBe(0)
    expect((await server.store.getRepo('acme/shop'))!.entries.get('x.md')!.content).toBe('v2 from B\n')

    // A edits too, without pulling B's: both changed. The server wins on disk, A's edit is in history.
    writeFile(fileA, 'v3 from A\n')
    const conflict = cliSession(a.env, a.project)
    expect(await conflict.run(['sync', '--json'])).toBe(0)
    const out = JSON.parse(conflict.io.stdout)
    expect(out.conflicts).toEqual([{ key: 'x.md', localVersion: expect.any(Number) }])
    expect(readFileSync(fileA, 'utf8')).toBe('v2 from B\n')
    const hist = cliSession(a.env, a.project)
    expect(await hist.run(['history', 'team/x.md', '--json'])).toBe(0)
    const kept = (JSON.parse(hist.io.stdout) as { id: number; author: string; after: string }[]).find(
      (e) => e.id === out.conflicts[0].localVersion,
    )!
    // Made outside Memdir (here: written to the file), so history names it external, not the pull.
    expect(['user', 'external']).toContain(kept.author)
    // "Restore mine", then sync: A's version goes to the server.
    expect(await cliSession(a.env, a.project).run(['restore', 'team/x.md', '--to', String(kept.id)])).toBe(0)
    expect(readFileSync(fileA, 'utf8')).toBe('v3 from A\n')
    expect(await cliSession(a.env, a.project).run(['sync'])).toBe(0)
    expect((await server.store.getRepo('acme/shop'))!.entries.get('x.md')!.content).toBe('v3 from A\n')
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
