import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { startTeamServer, teamCall as call } from '../test/helpers/team-server.js'
import { teamRepoProblem } from '../src-shared/team-repo.js'

const PATH = '/api/claude_code/team_memory'

// PostgreSQL runs when a database is available (CI starts one: see .ci/run).
const backends = [{ name: 'sqlite', databaseUrl: undefined as string | undefined }]
if (process.env.TEST_DATABASE_URL)
  backends.push({ name: 'postgres', databaseUrl: process.env.TEST_DATABASE_URL })

describe.each(backends)('team server ($name)', ({ databaseUrl }) => {
  const repo = () => `acme/app-${Math.random().toString(36).slice(2, 8)}`

  it('404 before any data, then upsert keeps absent keys and the ETag changes on every write', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    expect((await call(s.url, t, 'GET', r)).status).toBe(404)
    const p1 = await call(s.url, t, 'PUT', r, { body: { entries: { 'a.md': 'A', 'b.md': 'B' } } })
    expect(p1.status).toBe(200)
    expect(p1.body.checksum).toMatch(/^sha256:[0-9a-f]{64}$/)
    const p2 = await call(s.url, t, 'PUT', r, { body: { entries: { 'b.md': 'B2' } } })
    const p3 = await call(s.url, t, 'PUT', r, { body: { entries: { 'b.md': 'B2' } } })
    expect(new Set([p1.body.checksum, p2.body.checksum, p3.body.checksum]).size).toBe(3)
    const got = await call(s.url, t, 'GET', r)
    expect(got.body.content.entries).toEqual({ 'a.md': 'A', 'b.md': 'B2' })
    expect(got.body).toMatchObject({ repo: r, version: 3, checksum: p3.body.checksum })
    expect(got.etag).toBe(`"${p3.body.checksum}"`)
    expect(got.body.content.entryChecksums['a.md']).toBe(
      'sha256:559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd',
    )
  })

  it('a repo is one team memory whatever the case of its name: origins that differ in case share it', async () => {
    const s = await startTeamServer({ databaseUrl })
    const id = Math.random().toString(36).slice(2, 8)
    const t = await s.token(`Acme/Shop-${id}`)
    expect(
      (await call(s.url, t, 'PUT', `acme/shop-${id}`, { body: { entries: { 'a.md': 'A' } } })).status,
    ).toBe(200)
    const other = await call(s.url, t, 'GET', `ACME/SHOP-${id}`)
    expect(other.status).toBe(200)
    expect(other.body.content.entries).toEqual({ 'a.md': 'A' })
    expect(other.body.repo).toBe(`acme/shop-${id}`)
    expect(
      (await call(s.url, t, 'PUT', `Acme/Shop-${id}`, { body: { entries: { 'b.md': 'B' } } })).status,
    ).toBe(200)
    expect(Object.keys((await call(s.url, t, 'GET', `acme/shop-${id}`)).body.content.entries)).toEqual([
      'a.md',
      'b.md',
    ])
    // A repo an earlier server kept in mixed case is found by any case, and written where it is.
    await s.store.upsert(`Acme/Old-${id}`, { 'old.md': 'O' }, undefined, 100)
    const t2 = await s.token(`acme/old-${id}`)
    const legacy = await call(s.url, t2, 'GET', `acme/old-${id}`)
    expect(legacy.body).toMatchObject({ repo: `Acme/Old-${id}`, content: { entries: { 'old.md': 'O' } } })
    expect(
      (await call(s.url, t2, 'PUT', `ACME/OLD-${id}`, { body: { entries: { 'new.md': 'N' } } })).status,
    ).toBe(200)
    expect([...(await s.store.getRepo(`Acme/Old-${id}`))!.entries.keys()].sort()).toEqual([
      'new.md',
      'old.md',
    ])
    // Another repo's token is still refused.
    expect((await call(s.url, t2, 'GET', `acme/shop-${id}`)).status).toBe(403)
  })

  it('view=hashes has checksums and no bodies; If-None-Match gives 304; If-Match mismatch gives 412', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    const first = await call(s.url, t, 'PUT', r, { body: { entries: { 'a.md': 'A' } } })
    const hashes = await call(s.url, t, 'GET', r, { view: 'hashes' })
    expect(hashes.body.content.entries).toBeUndefined()
    expect(Object.keys(hashes.body.content.entryChecksums)).toEqual(['a.md'])
    expect((await call(s.url, t, 'GET', r, { headers: { 'if-none-match': hashes.etag! } })).status).toBe(304)
    const ok = await call(s.url, t, 'PUT', r, {
      body: { entries: { 'b.md': 'B' } },
      headers: { 'if-match': `"${first.body.checksum}"` },
    })
    expect(ok.status).toBe(200)
    const stale = await call(s.url, t, 'PUT', r, {
      body: { entries: { 'c.md': 'C' } },
      headers: { 'if-match': `"${first.body.checksum}"` },
    })
    expect(stale.status).toBe(412)
    expect(Object.keys((await call(s.url, t, 'GET', r)).body.content.entries)).toEqual(['a.md', 'b.md'])
  })

  it('reads a precondition by its tag’s value: a tag a proxy weakened or a client left unquoted, a list, and *', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    const first = await call(s.url, t, 'PUT', r, { body: { entries: { 'a.md': 'A' } } })
    const sum = first.body.checksum as string
    for (const tag of [`W/"${sum}"`, `"other", W/"${sum}"`, '*'])
      expect((await call(s.url, t, 'GET', r, { headers: { 'if-none-match': tag } })).status).toBe(304)
    const weak = await call(s.url, t, 'PUT', r, {
      body: { entries: { 'b.md': 'B' } },
      headers: { 'if-match': `W/"${sum}"` },
    })
    expect(weak.status).toBe(200)
    const bare = await call(s.url, t, 'PUT', r, {
      body: { entries: { 'c.md': 'C' } },
      headers: { 'if-match': weak.body.checksum },
    })
    expect(bare.status).toBe(200)
    // A tag of another version is still refused, however it is written.
    for (const tag of [`W/"${sum}"`, sum]) {
      const stale = await call(s.url, t, 'PUT', r, {
        body: { entries: { 'd.md': 'D' } },
        headers: { 'if-match': tag },
      })
      expect(stale.status).toBe(412)
    }
    expect(Object.keys((await call(s.url, t, 'GET', r)).body.content.entries)).toEqual([
      'a.md',
      'b.md',
      'c.md',
    ])
  })

  it('takes a body that starts with a byte order mark, as some clients send UTF-8', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    const res = await fetch(`${s.url}${PATH}?repo=${encodeURIComponent(r)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
      body: '\uFEFF' + JSON.stringify({ entries: { 'a.md': 'A' } }),
    })
    expect(res.status).toBe(200)
    expect((await call(s.url, t, 'GET', r)).body.content.entries).toEqual({ 'a.md': 'A' })
  })

  it('reads a gzip or deflate body as its JSON, and refuses a bomb, a coding it does not read and a broken stream clearly', async () => {
    const s = await startTeamServer({ databaseUrl, maxBodyBytes: 100_000 })
    const r = repo()
    const t = await s.token(r)
    const put = (body: BodyInit, coding: string) =>
      fetch(`${s.url}${PATH}?repo=${encodeURIComponent(r)}`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${t}`,
          'content-type': 'application/json',
          'content-encoding': coding,
        },
        body,
      })
    const json = (entries: Record<string, string>) => JSON.stringify({ entries })
    expect((await put(new Uint8Array(gzipSync(json({ 'a.md': 'A' }))), 'gzip')).status).toBe(200)
    expect((await put(new Uint8Array(deflateSync(json({ 'b.md': 'B' }))), 'deflate')).status).toBe(200)
    expect((await call(s.url, t, 'GET', r)).body.content.entries).toEqual({ 'a.md': 'A', 'b.md': 'B' })
    // Characters of several bytes that the decoded chunks split come back whole.
    const wide = 'über — 日本語 '.repeat(2_000)
    expect((await put(new Uint8Array(gzipSync(json({ 'w.md': wide }))), 'gzip')).status).toBe(200)
    expect((await call(s.url, t, 'GET', r)).body.content.entries['w.md']).toBe(wide)
    // 2 KB on the wire, 10 MB decoded: the limit counts what the body decodes to.
    const bomb = await put(new Uint8Array(gzipSync(json({ 'c.md': 'x'.repeat(10_000_000) }))), 'gzip')
    expect(bomb.status).toBe(413)
    const unknown = await put(new Uint8Array(brotliCompressSync(json({ 'd.md': 'D' }))), 'br')
    expect(unknown.status).toBe(415)
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /Content-Encoding "br" is not supported/,
    )
    const broken = await put('this is not gzip at all', 'gzip')
    expect(broken.status).toBe(400)
    expect(((await broken.json()) as { error: { message: string } }).error.message).toMatch(/not valid gzip/)
    // Nothing of those was stored, and the server still answers.
    expect((await call(s.url, t, 'GET', r)).body.content.entries).toEqual({
      'a.md': 'A',
      'b.md': 'B',
      'w.md': wide,
    })
  })

  it('scopes tokens to repos: 401 without or with an unknown token, 403 on another repo', async () => {
    const s = await startTeamServer({ databaseUrl })
    const x = repo()
    const y = repo()
    const tx = await s.token(x)
    await call(s.url, tx, 'PUT', x, { body: { entries: { 'a.md': 'A' } } })
    expect((await call(s.url, undefined, 'GET', x)).status).toBe(401)
    expect((await call(s.url, 'tmt_nope', 'GET', x)).status).toBe(401)
    expect((await call(s.url, tx, 'GET', y)).status).toBe(403)
    expect((await call(s.url, tx, 'PUT', y, { body: { entries: { 'a.md': 'A' } } })).status).toBe(403)
  })

  it('413 over the body limit and over the entry limit', async () => {
    const s = await startTeamServer({ databaseUrl, maxBodyBytes: 1000, maxEntries: 2 })
    const r = repo()
    const t = await s.token(r)
    expect((await call(s.url, t, 'PUT', r, { body: { entries: { 'a.md': 'x'.repeat(2000) } } })).status).toBe(
      413,
    )
    const many = await call(s.url, t, 'PUT', r, {
      body: { entries: { 'a.md': '1', 'b.md': '2', 'c.md': '3' } },
    })
    expect(many.status).toBe(413)
    expect(many.body.error.details).toEqual({
      error_code: 'team_memory_too_many_entries',
      max_entries: 2,
      received_entries: 3,
      held_entries: 0,
    })
  })

  it('rejects bad requests clearly', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    expect((await call(s.url, t, 'PUT', r, { body: 'nope' })).status).toBe(400)
    expect((await call(s.url, t, 'PUT', r, { body: { entries: { '../x.md': 'A' } } })).status).toBe(400)
    expect((await call(s.url, t, 'GET', 'not-a-repo')).status).toBe(400)
  })

  it.each(['not-a-repo', '../..', 'acme/..', 'acme/app/x', 'acme/ap p', `acme/${'a'.repeat(200)}`])(
    'refuses the repo %j with the client’s own rule (400 naming it), token or not',
    async (bad) => {
      const s = await startTeamServer({ databaseUrl })
      const t = await s.token('acme/app')
      for (const method of ['GET', 'PUT'])
        for (const token of [t, undefined]) {
          const body = method === 'PUT' ? { entries: { 'a.md': 'A' } } : undefined
          const res = await call(s.url, token, method, bad, { body })
          expect(res.status).toBe(400)
          expect(res.body.error.message).toContain(`repo ${teamRepoProblem(bad)}`)
        }
    },
  )

  it.each([
    'ctl\u0001\u001b[31m.md',
    'a\\b.md',
    '%2e%2e/x.md',
    './a.md',
    'a/./b.md',
    'a//b.md',
    '/abs.md',
    'C:/x.md',
    'rtl\u202etxt.md',
    'nul\u0000.md',
    '\uff0e\uff0e/x.md',
    'memory.md',
    'lone\ud800.md',
  ])('refuses the key %j with the client’s own check', async (key) => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    const res = await call(s.url, t, 'PUT', r, { body: { entries: { [key]: 'A' } } })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/invalid key/)
  })

  it.each([
    ['a NUL character', 'two\nlines\u0000', /b\.md holds a NUL character \(line 2\)/],
    [
      'a lone surrogate',
      'half \ud83d of an emoji',
      /b\.md is not well-formed Unicode \(a lone surrogate, U\+D83D\)/,
    ],
  ])(
    'refuses content holding %s (422 naming the key) and stores nothing of that push',
    async (_what, text, message) => {
      const s = await startTeamServer({ databaseUrl })
      const r = repo()
      const t = await s.token(r)
      expect((await call(s.url, t, 'PUT', r, { body: { entries: { 'a.md': 'A' } } })).status).toBe(200)
      const res = await call(s.url, t, 'PUT', r, { body: { entries: { 'a.md': 'A2', 'b.md': text } } })
      expect(res.status).toBe(422)
      expect(res.body.error.message).toMatch(message)
      expect(res.body.error.details).toMatchObject({ error_code: 'team_memory_not_text', key: 'b.md' })
      expect((await call(s.url, t, 'GET', r)).body.content.entries).toEqual({ 'a.md': 'A' })
    },
  )

  it('refuses a team index linking out of team/ (422 naming key and line), and takes one that links inside', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    const inside = '- [Deploy](deploy.md) — staging first\n- [Docs](https://wiki.example.com/a.md)\n'
    expect((await call(s.url, t, 'PUT', r, { body: { entries: { 'MEMORY.md': inside } } })).status).toBe(200)
    for (const link of [
      '../../../.ssh/id_rsa.md',
      '/etc/passwd',
      '%2e%2e/user_prefs.md',
      'file:///etc/shadow',
    ]) {
      const res = await call(s.url, t, 'PUT', r, {
        body: { entries: { 'MEMORY.md': `${inside}- [Setup](${link}) — read this first\n` } },
      })
      expect(res.status, link).toBe(422)
      expect(res.body.error.message).toContain(
        `MEMORY.md is the team index, and its line 3 links to ${JSON.stringify(link)}, outside team/`,
      )
      expect(res.body.error.details).toEqual({ error_code: 'team_memory_link_outside', key: 'MEMORY.md' })
    }
    // An autolink is a link too: `<file:///…>` in the team index leads an agent to that file.
    const auto = await call(s.url, t, 'PUT', r, {
      body: { entries: { 'MEMORY.md': `${inside}- Setup: <file:///home/me/.ssh/id_rsa>\n` } },
    })
    expect(auto.status).toBe(422)
    expect(auto.body.error.details).toEqual({ error_code: 'team_memory_link_outside', key: 'MEMORY.md' })
    // The same link in another memory is prose, not the index every teammate's agent loads.
    expect(
      (await call(s.url, t, 'PUT', r, { body: { entries: { 'notes.md': '[x](../../x.md)' } } })).status,
    ).toBe(200)
    expect((await call(s.url, t, 'GET', r)).body.content.entries['MEMORY.md']).toBe(inside)
  })

  it('stays up under malformed queries, headers and bodies', async () => {
    const s = await startTeamServer({ databaseUrl })
    const r = repo()
    const t = await s.token(r)
    const bodies = [
      '',
      'null',
      '[]',
      '{"entries":null}',
      '{"entries":[]}',
      '{"entries":{"a.md":1}}',
      '{"entries":{},"x":1}',
      '{' + '"a":{'.repeat(2000),
    ]
    for (const body of bodies) expect((await call(s.url, t, 'PUT', r, { body })).status).toBe(400)
    for (const q of ['?repo=%E0%A4%A', '?repo=a/b&view=all', '?', '?repo=' + 'a'.repeat(5000) + '/b']) {
      const res = await fetch(`${s.url}${PATH}${q}`, { headers: { authorization: `Bearer ${t}` } })
      expect([400, 401, 403]).toContain(res.status)
    }
    expect((await fetch(`${s.url}/%E0%A4%A`)).status).toBe(404)
    expect((await call(s.url, t, 'PUT', r, { body: { entries: { 'ok.md': 'fine' } } })).status).toBe(200)
  })
})
