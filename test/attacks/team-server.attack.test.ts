import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { clearAutoMemPathCache } from '../../src-main/core/paths/auto-mem-path.js'
import { getTeamMemPath } from '../../src-main/core/paths/team-agent-paths.js'
import { cliSession } from '../helpers/cli.js'
import { changesOutside, snapshotTree } from '../helpers/home-snapshot.js'
import { startTeamServer, teamCall } from '../helpers/team-server.js'
import { sandbox, tempDir } from '../helpers/temp-env.js'

/**
 * The team server as any client can reach it — an old Memdir, a script, curl: it enforces the
 * name rule and the secret firewall itself, answers 200 only for what it stored, and can delete
 * any key. A teammate's pull then never writes what it must not, and reports what it skipped.
 */

beforeEach(() => clearAutoMemPathCache())

const backends = [{ name: 'sqlite', databaseUrl: undefined as string | undefined }]
if (process.env.TEST_DATABASE_URL)
  backends.push({ name: 'postgres', databaseUrl: process.env.TEST_DATABASE_URL })
const freshRepo = () => `attack/r-${Math.random().toString(36).slice(2, 8)}`

// Real-format credentials, assembled so no scanner flags this file itself.
const GITHUB_TOKEN = 'ghp_' + 'R7sQ2kLm9VxT4bN8cW1zY6hJ3fD5gA0pE2uK'
const AWS_KEY = 'AKIA' + 'QW3ERT7YUI2OPASD'

describe.each(backends)('the team server enforces the client rules itself ($name)', ({ databaseUrl }) => {
  it('refuses keys no client may write: 400 naming the rule, nothing stored', async () => {
    const s = await startTeamServer({ databaseUrl })
    const repo = freshRepo()
    const t = await s.token(repo)
    const bad = [
      'a'.repeat(300) + '.md', // ENAMETOOLONG on a teammate's disk
      'x\n- [owned](../../.ssh/id_rsa).md',
      'gpj\u202e.md',
      '../escape.md',
      '/etc/cron.d/x.md',
      'a\\b.md',
      'cafe\u0301.md', // NFD
      '__proto__',
      'constructor',
      'prototype',
      'notes.txt',
    ]
    for (const key of bad) {
      const r = await teamCall(s.url, t, 'PUT', repo, { body: { entries: { [key]: 'x' } } })
      expect(r.status, JSON.stringify(key)).toBe(400)
      expect(r.body.error.details).toMatchObject({ error_code: 'team_memory_invalid_key', key })
    }
    const tooLong = await teamCall(s.url, t, 'PUT', repo, {
      body: { entries: { ['a'.repeat(300) + '.md']: 'x' } },
    })
    expect(tooLong.body.error.details.rule).toBe('PATH_TOO_LONG')
    expect(await s.store.getRepo(repo)).toBeUndefined()
  })

  it('answers 200 only for what it stores: __proto__.md and friends come back as sent', async () => {
    const s = await startTeamServer({ databaseUrl })
    const repo = freshRepo()
    const t = await s.token(repo)
    const body = '{"entries":{"__proto__.md":"p","constructor.md":"c","prototype.md":"q"}}'
    expect((await teamCall(s.url, t, 'PUT', repo, { body })).status).toBe(200)
    const got = await teamCall(s.url, t, 'GET', repo)
    expect(Object.keys(got.body.content.entries).sort()).toEqual([
      '__proto__.md',
      'constructor.md',
      'prototype.md',
    ])
    // A raw `__proto__` key (no .md) is refused, never silently dropped.
    const raw = await teamCall(s.url, t, 'PUT', repo, { body: '{"entries":{"__proto__":"x","ok.md":"y"}}' })
    expect(raw.status).toBe(400)
    expect((await s.store.getRepo(repo))!.entries.has('ok.md')).toBe(false)
  })

  it('refuses a second spelling of a stored key (case or NFD twin) that APFS and NTFS would merge', async () => {
    const s = await startTeamServer({ databaseUrl })
    const repo = freshRepo()
    const t = await s.token(repo)
    expect((await teamCall(s.url, t, 'PUT', repo, { body: { entries: { 'Deploy.md': 'a' } } })).status).toBe(
      200,
    )
    const twin = await teamCall(s.url, t, 'PUT', repo, { body: { entries: { 'deploy.md': 'b' } } })
    expect(twin.status).toBe(422)
    expect(twin.body.error.details).toMatchObject({
      error_code: 'team_memory_key_collision',
      existing: 'Deploy.md',
    })
  })

  it('refuses a key whose folder is another spelling of a stored folder, or a file where a folder is', async () => {
    const s = await startTeamServer({ databaseUrl })
    const repo = freshRepo()
    const t = await s.token(repo)
    const put = (entries: Record<string, string>) => teamCall(s.url, t, 'PUT', repo, { body: { entries } })
    expect((await put({ 'Ops/deploy.md': 'a', 'notes.md': 'n' })).status).toBe(200)
    for (const [key, existing, message] of [
      ['ops/rollback.md', 'Ops/deploy.md', 'ops and Ops would be one folder on macOS and Windows'],
      ['notes.md/today.md', 'notes.md', 'notes.md is a file there, and notes.md/today.md needs a folder'],
      ['OPS.md/x.md', undefined, undefined],
    ] as const) {
      const r = await put({ [key]: 'b' })
      if (!existing) {
        expect(r.status, key).toBe(200)
        continue
      }
      expect(r.status, key).toBe(422)
      expect(r.body.error.message).toContain(message)
      expect(r.body.error.details).toEqual({ error_code: 'team_memory_key_collision', key, existing })
    }
    expect((await put({ 'Ops/rollback.md': 'c' })).status).toBe(200)
    expect([...(await s.store.getRepo(repo))!.entries.keys()].sort()).toEqual([
      'OPS.md/x.md',
      'Ops/deploy.md',
      'Ops/rollback.md',
      'notes.md',
    ])
  })

  it('refuses a secret with 422 naming the key and the rule, never the secret', async () => {
    const s = await startTeamServer({ databaseUrl })
    const repo = freshRepo()
    const t = await s.token(repo)
    for (const [key, text] of [
      ['ci.md', `CI pushes with ${GITHUB_TOKEN}\n`],
      ['aws.md', `deploy user key ${AWS_KEY}\n`],
    ]) {
      const r = await teamCall(s.url, t, 'PUT', repo, {
        body: { entries: { 'clean.md': 'fine', [key!]: text! } },
      })
      expect(r.status).toBe(422)
      expect(r.body.error.details).toMatchObject({ error_code: 'team_memory_secret', key })
      expect(r.body.error.details.rules.length).toBeGreaterThan(0)
      expect(JSON.stringify(r.body)).not.toContain(text!.split(' ').at(-1)!.trim())
    }
    expect(await s.store.getRepo(repo)).toBeUndefined() // not even the clean entry of those PUTs
  })

  it('refuses a key that is itself a credential with 422, naming it by its prefix only, whatever else is wrong with it', async () => {
    const s = await startTeamServer({ databaseUrl })
    const repo = freshRepo()
    const t = await s.token(repo)
    const cases: [string, unknown, string][] = [
      [`${GITHUB_TOKEN}.md`, 'the CI note', 'ghp_….md'],
      [`notes/${AWS_KEY}/deploy.md`, 'the deploy user', 'notes/AKIA…/deploy.md'],
      // Also wrong in another way, which would be answered first with the key in the message.
      [GITHUB_TOKEN, 'no .md', 'ghp_…'],
      [`${GITHUB_TOKEN}.md`, 42, 'ghp_….md'],
    ]
    for (const [key, text, shown] of cases) {
      const r = await teamCall(s.url, t, 'PUT', repo, {
        body: { entries: { 'clean.md': 'fine', [key]: text } },
      })
      expect(r.status, key).toBe(422)
      expect(r.body.error.details).toMatchObject({ error_code: 'team_memory_secret', key_redacted: shown })
      expect(r.body.error.message).toContain('in its name')
      expect(JSON.stringify(r.body)).not.toContain(GITHUB_TOKEN.slice(4))
      expect(JSON.stringify(r.body)).not.toContain(AWS_KEY.slice(4))
    }
    expect(await s.store.getRepo(repo)).toBeUndefined()
  })

  it('refuses an entry over 250,000 bytes, the size clients never upload', async () => {
    const s = await startTeamServer({ databaseUrl, maxBodyBytes: 2_000_000 })
    const repo = freshRepo()
    const t = await s.token(repo)
    const r = await teamCall(s.url, t, 'PUT', repo, { body: { entries: { 'big.md': 'x'.repeat(250_001) } } })
    expect(r.status).toBe(413)
    expect(r.body.error.details).toMatchObject({ error_code: 'team_memory_entry_too_large', key: 'big.md' })
  })

  it('deletes a key, also one an older server stored that no client can hold', async () => {
    const s = await startTeamServer({ databaseUrl })
    const repo = freshRepo()
    const t = await s.token(repo)
    const longKey = 'b'.repeat(300) + '.md'
    await s.store.upsert(repo, { 'keep.md': 'k', [longKey]: 'x' }, undefined, 100) // as an old server did
    const del = await fetch(
      `${s.url}/api/claude_code/team_memory?repo=${repo}&key=${encodeURIComponent(longKey)}`,
      {
        method: 'DELETE',
        headers: { authorization: `Bearer ${t}` },
      },
    )
    expect(del.status).toBe(200)
    expect(await del.json()).toMatchObject({ deleted: [longKey] })
    expect([...(await s.store.getRepo(repo))!.entries.keys()]).toEqual(['keep.md'])
    const again = await fetch(
      `${s.url}/api/claude_code/team_memory?repo=${repo}&key=${encodeURIComponent(longKey)}`,
      {
        method: 'DELETE',
        headers: { authorization: `Bearer ${t}` },
      },
    )
    expect(again.status).toBe(404)
  })
})

describe('memdir team-server key list|delete', () => {
  it('lists keys, flags the ones no client can write, and deletes one by name', async () => {
    const data = join(tempDir(), 'team.sqlite')
    const admin = cliSession({ HOME: tempDir() }, '/')
    const { openSqliteStore } = await import('../../src-server/sqlite-store.js')
    const store = openSqliteStore(data)
    const longKey = 'c'.repeat(300) + '.md'
    // What an older server accepted: a name no disk holds, a credential as a name and in a text.
    await store.upsert(
      'acme/shop',
      { 'ok.md': 'fine', [longKey]: 'x', [`${GITHUB_TOKEN}.md`]: 'y', 'ci.md': `push with ${AWS_KEY}` },
      undefined,
      100,
    )
    await store.close()
    expect(
      await admin.run(['team-server', 'key', 'list', '--repo', 'acme/shop', '--json', '--data', data]),
    ).toBe(0)
    const listed = JSON.parse(admin.io.stdout) as { key: string; problem?: string }[]
    expect(listed.find((k) => k.key === longKey)?.problem).toMatch(/bytes long/)
    expect(listed.find((k) => k.key === 'ok.md')?.problem).toBeUndefined()
    expect(listed.find((k) => k.key === `${GITHUB_TOKEN}.md`)?.problem).toBe(
      'holds a GitHub token (secretlint/github) in its name: delete it',
    )
    expect(listed.find((k) => k.key === 'ci.md')?.problem).toMatch(/^holds an AWS .* on line 1: delete it$/)
    admin.io.stdout = ''
    expect(await admin.run(['team-server', 'key', 'list', '--repo', 'acme/shop', '--data', data])).toBe(0)
    expect(admin.io.stdout).toContain('"ok.md"  4 bytes\n')
    expect(admin.io.stdout).toContain(`"${longKey}"  1 byte  (`)
    admin.io.stdout = ''
    expect(
      await admin.run(['team-server', 'key', 'delete', '--repo', 'acme/shop', longKey, '--data', data]),
    ).toBe(0)
    expect(
      await admin.run(['team-server', 'key', 'delete', '--repo', 'acme/shop', longKey, '--data', data]),
    ).toBe(1)
    admin.io.stdout = ''
    // The repo's name in another case is the same repo (as on the hosts origins come from).
    expect(
      await admin.run(['team-server', 'key', 'list', '--repo', 'Acme/Shop', '--json', '--data', data]),
    ).toBe(0)
    expect((JSON.parse(admin.io.stdout) as { key: string }[]).map((k) => k.key)).toEqual([
      'ci.md',
      `${GITHUB_TOKEN}.md`,
      'ok.md',
    ])
  })
})

describe('a teammate pulls from a server that holds what it must not', () => {
  it('writes every good entry, reports each bad one, and writes nothing outside the memory and data dirs', async () => {
    const s = await startTeamServer()
    const t = await s.token('acme/shop')
    const good = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`note-${String(i).padStart(2, '0')}.md`, `fact ${i}\n`]),
    )
    const bad = {
      ['d'.repeat(300) + '.md']: 'too long a name for any disk',
      'ci.md': `CI pushes with ${GITHUB_TOKEN}\n`,
      'x\u202egpj.md': 'bidi',
      [`${GITHUB_TOKEN}.md`]: 'a name that is a token',
    }
    // What an older server accepted, stored directly.
    await s.store.upsert('acme/shop', { ...good, ...bad }, undefined, 100)
    const sb = sandbox({
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: s.url,
      MEMDIR_TEAM_TOKEN: t,
      MEMDIR_TEAM_REPO: 'acme/shop',
    })
    const before = snapshotTree(sb.home)
    const run = cliSession(sb.env, sb.project)
    expect(await run.run(['sync', '--pull', '--json'])).toBe(0)
    const out = JSON.parse(run.io.stdout) as {
      pulled: string[]
      skipped: { key: string; kind: string; reason: string }[]
    }
    expect(out.pulled.sort()).toEqual(Object.keys(good).sort())
    expect(out.skipped.map((x) => [x.key, x.kind]).sort()).toEqual(
      [
        ['d'.repeat(300) + '.md', 'invalid_key'],
        ['ci.md', 'secret'],
        ['x\u202egpj.md', 'invalid_key'],
        ['ghp_….md', 'secret'],
      ].sort(),
    )
    expect(JSON.stringify(out)).not.toContain(GITHUB_TOKEN)
    const teamDir = getTeamMemPath(sb.ctx())
    expect(readdirSync(teamDir).sort()).toEqual(Object.keys(good).sort())
    expect(readFileSync(join(teamDir, 'note-03.md'), 'utf8')).toBe('fact 3\n')
    expect(existsSync(join(teamDir, 'ci.md'))).toBe(false)
    const memoryRel = teamDir.slice(sb.home.length + 1).replace(/\/team\/?$/, '')
    expect(changesOutside(before, snapshotTree(sb.home), [memoryRel, '.memdir'])).toEqual([])
  })
})
