import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startTeamServer } from '../../../test/helpers/team-server.js'
import { storedRepoName } from '../../../src-server/store.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { until } from '../../../test/helpers/until.js'
import { TeamApiClient, TeamApiError } from './api-client.js'
import { PathTraversalError, validateTeamMemWritePath } from './keys.js'
import { retryDelayMs, withRetries } from './retry.js'
import { SyncBase } from './sync-base.js'
import {
  createSyncState,
  planBatches,
  pullTeamMemory,
  pushTeamMemory,
  syncTeamMemory,
  type SyncDeps,
} from './sync.js'

const REPO = 'acme/shop'
const ANTHROPIC_KEY = 'sk-ant-api03-' + 'Zx9'.repeat(30)
const GITHUB_TOKEN = 'ghp_' + 'R7sQ2kLm9VxT4bN8cW1zY6hJ3fD5gA0pE2uK'

/** A client whose PUT bodies are recorded, to assert exactly what was sent. */
function client(url: string, token: string, teamDir: string) {
  const puts: Record<string, string>[] = []
  const requests: string[] = []
  const api = new TeamApiClient({
    baseUrl: url,
    token,
    fetch: async (input, init) => {
      requests.push(init?.method ?? 'GET')
      if (init?.method === 'PUT') puts.push(JSON.parse(String(init.body)).entries)
      return fetch(input, init)
    },
  })
  const deps: SyncDeps = { api, repo: REPO, teamDir, state: createSyncState(), sleep: async () => {} }
  return { deps, puts, requests }
}

async function twoClients() {
  const server = await startTeamServer()
  const token = await server.token(REPO)
  const a = client(server.url, token, join(tempDir(), 'team'))
  const b = client(server.url, token, join(tempDir(), 'team'))
  mkdirSync(a.deps.teamDir, { recursive: true })
  mkdirSync(b.deps.teamDir, { recursive: true })
  return { server, a, b }
}

/**
 * A reverse proxy on loopback in front of the team server: it can serve it under a path prefix
 * (stripped on the way in) and weaken its ETags, as nginx with gzip on does. `outside`: requests
 * it got outside the prefix (answered 404, as a proxy's other sites would).
 */
async function startProxy(
  target: string,
  opts: { prefix?: string; weakenEtags?: boolean; maxBodyBytes?: number },
) {
  const statuses: string[] = []
  const outside: string[] = []
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const path = req.url ?? '/'
      if (opts.maxBodyBytes !== undefined && Buffer.concat(chunks).length > opts.maxBodyBytes) {
        // nginx's answer past client_max_body_size: its own HTML page.
        statuses.push(`${req.method} 413`)
        res.writeHead(413, { 'content-type': 'text/html' })
        res.end(
          '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        )
        return
      }
      if (opts.prefix && !path.startsWith(opts.prefix + '/')) {
        outside.push(path)
        res.writeHead(404).end()
        return
      }
      const pass = ['authorization', 'content-type', 'if-match', 'if-none-match']
      const headers = Object.fromEntries(
        pass.flatMap((h) => (req.headers[h] ? [[h, String(req.headers[h])]] : [])),
      )
      const up = await fetch(target + path.slice(opts.prefix?.length ?? 0), {
        method: req.method,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      })
      statuses.push(`${req.method} ${up.status}`)
      const etag = up.headers.get('etag')
      const body = Buffer.from(await up.arrayBuffer())
      res.writeHead(up.status, {
        'content-type': up.headers.get('content-type') ?? 'application/json',
        ...(etag ? { etag: opts.weakenEtags ? `W/${etag}` : etag } : {}),
      })
      res.end(body)
    })
  })
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    statuses,
    outside,
    close: () => proxy.close(),
  }
}

describe('team memory sync, two clients and the real server', () => {
  it('A pushes 300 files, B pulls them all; an edit pushes exactly one key', async () => {
    const { a, b } = await twoClients()
    for (let i = 0; i < 300; i++) {
      writeFile(
        join(a.deps.teamDir, `topic-${String(i).padStart(3, '0')}.md`),
        `---\nname: t${i}\ndescription: d${i}\ntype: project\n---\n${'fact '.repeat(200)}${i}\n`,
      )
    }
    const first = await pushTeamMemory(a.deps)
    expect(first.pushed).toHaveLength(300)
    expect(first.batches).toBeGreaterThan(1) // ~300 KB split at 200,000 bytes
    for (const body of a.puts)
      expect(Buffer.byteLength(JSON.stringify({ entries: body }))).toBeLessThan(200_000)

    const pulled = await pullTeamMemory(b.deps)
    expect(pulled.pulled).toHaveLength(300)
    for (const f of readdirSync(a.deps.teamDir)) {
      expect(readFileSync(join(b.deps.teamDir, f), 'utf8')).toBe(
        readFileSync(join(a.deps.teamDir, f), 'utf8'),
      )
    }

    writeFile(join(a.deps.teamDir, 'topic-042.md'), 'edited\n')
    a.puts.length = 0
    const second = await pushTeamMemory(a.deps)
    expect(second.pushed).toEqual(['topic-042.md'])
    expect(a.puts).toEqual([{ 'topic-042.md': 'edited\n' }])
    expect((await pushTeamMemory(a.deps)).pushed).toEqual([]) // no-op push sends nothing
  })

  it('concurrent pushes to different keys both survive through the 412 path', async () => {
    const { server, a, b } = await twoClients()
    writeFile(join(a.deps.teamDir, 'base.md'), 'base\n')
    await syncTeamMemory(a.deps)
    await syncTeamMemory(b.deps) // both now hold the same ETag
    writeFile(join(a.deps.teamDir, 'from-a.md'), 'A\n')
    writeFile(join(b.deps.teamDir, 'from-b.md'), 'B\n')
    await pushTeamMemory(a.deps)
    const rb = await pushTeamMemory(b.deps)
    expect(rb.conflicts).toBe(1)
    expect(rb.pushed).toEqual(['from-b.md'])
    const doc = await server.store.getRepo(REPO)
    expect([...doc!.entries.keys()].sort()).toEqual(['base.md', 'from-a.md', 'from-b.md'])
    await pullTeamMemory(a.deps)
    expect(readFileSync(join(a.deps.teamDir, 'from-b.md'), 'utf8')).toBe('B\n')
  })

  it('behind a proxy that weakens ETags, as nginx with gzip does: pushes go without a 412, and an unchanged pull is a 304', async () => {
    const server = await startTeamServer()
    const token = await server.token(REPO)
    const proxy = await startProxy(server.url, { weakenEtags: true })
    const { statuses, url } = proxy
    try {
      const a = client(url, token, join(tempDir(), 'team'))
      mkdirSync(a.deps.teamDir, { recursive: true })
      writeFile(join(a.deps.teamDir, 'one.md'), 'one\n')
      await syncTeamMemory(a.deps)
      // A teammate pushes straight to the server: A's next pull is a 200, with the proxy's weak ETag.
      const b = client(server.url, token, join(tempDir(), 'team'))
      mkdirSync(b.deps.teamDir, { recursive: true })
      writeFile(join(b.deps.teamDir, 'from-b.md'), 'B\n')
      await syncTeamMemory(b.deps)
      writeFile(join(a.deps.teamDir, 'two.md'), 'two\n')
      const second = await syncTeamMemory(a.deps)
      expect(second.pull.pulled).toEqual(['from-b.md'])
      expect(second.push.pushed).toEqual(['two.md'])
      expect(second.push.conflicts).toBe(0)
      expect(statuses.filter((s) => s.endsWith(' 412'))).toEqual([])
      expect([...(await server.store.getRepo(REPO))!.entries.keys()].sort()).toEqual([
        'from-b.md',
        'one.md',
        'two.md',
      ])
      statuses.length = 0
      expect((await pullTeamMemory(a.deps)).pulled).toEqual([])
      expect(statuses).toEqual(['GET 304'])
    } finally {
      proxy.close()
    }
  })

  it('a server behind a reverse proxy under a path (https://tools…/memdir/) is reached there, not at the host’s root', async () => {
    const server = await startTeamServer()
    const token = await server.token(REPO)
    const proxy = await startProxy(server.url, { prefix: '/memdir' })
    try {
      const a = client(`${proxy.url}/memdir/`, token, join(tempDir(), 'team'))
      mkdirSync(a.deps.teamDir, { recursive: true })
      writeFile(join(a.deps.teamDir, 'one.md'), 'one\n')
      const r = await syncTeamMemory(a.deps)
      expect(r.push.pushed).toEqual(['one.md'])
      expect([...(await server.store.getRepo(REPO))!.entries.keys()]).toEqual(['one.md'])
      expect(proxy.outside).toEqual([])
    } finally {
      proxy.close()
    }
  })

  it('skips and reports a 260 KB file, a file holding an sk-ant key, one holding a NUL and a team index linking out of team/, none of which is sent', async () => {
    const { server, a } = await twoClients()
    writeFile(join(a.deps.teamDir, 'binary.md'), 'head\n\u0000\u0001tail')
    writeFile(join(a.deps.teamDir, 'huge.md'), 'x'.repeat(260_000))
    writeFile(join(a.deps.teamDir, 'creds.md'), `deploy with ANTHROPIC_API_KEY=${ANTHROPIC_KEY}\n`)
    writeFile(join(a.deps.teamDir, 'ok.md'), 'fine\n')
    writeFile(join(a.deps.teamDir, 'MEMORY.md'), '- [OK](ok.md)\n- [Keys](../../../.aws/credentials)\n')
    const r = await pushTeamMemory(a.deps)
    expect(r.pushed).toEqual(['ok.md'])
    expect(r.skipped).toEqual([
      {
        key: 'binary.md',
        kind: 'not_text',
        reason: 'not uploaded: it holds a NUL character (line 2): a memory is text',
      },
      {
        key: 'creds.md',
        kind: 'secret',
        reason: 'not uploaded: contains an Anthropic API key (anthropic-api-key) on line 1',
      },
      { key: 'huge.md', kind: 'too_large', reason: '260000 bytes is over the 250000-byte limit' },
      {
        key: 'MEMORY.md',
        kind: 'link_outside',
        reason:
          'not uploaded: it is the team index, and its line 2 links to "../../../.aws/credentials", outside team/: an index links memory files and web pages only',
      },
    ])
    expect(JSON.stringify(r.skipped)).not.toContain('sk-ant')
    expect(JSON.stringify(a.puts)).not.toContain('sk-ant')
    expect(JSON.stringify(a.puts)).not.toContain('binary.md')
    expect([...(await server.store.getRepo(REPO))!.entries.keys()]).toEqual(['ok.md'])
  })

  it('a file whose name is a credential is not uploaded, and is reported by its prefix only', async () => {
    const { server, a } = await twoClients()
    writeFile(join(a.deps.teamDir, `${GITHUB_TOKEN}.md`), 'the CI note\n')
    writeFile(join(a.deps.teamDir, 'ok.md'), 'fine\n')
    const r = await pushTeamMemory(a.deps)
    expect(r.pushed).toEqual(['ok.md'])
    expect(r.skipped).toEqual([
      {
        key: 'ghp_….md',
        kind: 'secret',
        reason: 'not uploaded: contains a GitHub token (secretlint/github) in its name',
      },
    ])
    expect(JSON.stringify(a.puts)).not.toContain(GITHUB_TOKEN)
    expect([...(await server.store.getRepo(REPO))!.entries.keys()]).toEqual(['ok.md'])
  })

  it('an entry holding a NUL, or a team index linking out of team/, on the server (an older server let it in) is reported and not written', async () => {
    const { server, b } = await twoClients()
    await server.store.upsert(
      REPO,
      { 'ok.md': 'fine\n', 'old.md': 'x\u0000y', 'MEMORY.md': '- [Start](/home/me/.bashrc)\n' },
      undefined,
      100,
    )
    const pulled = await pullTeamMemory(b.deps)
    expect(pulled.pulled).toEqual(['ok.md'])
    expect(pulled.skipped).toEqual([
      {
        key: 'MEMORY.md',
        kind: 'link_outside',
        reason: expect.stringContaining(
          'not written: the server\'s version is the team index, and its line 1 links to "/home/me/.bashrc"',
        ),
      },
      {
        key: 'old.md',
        kind: 'not_text',
        reason: expect.stringContaining("not written: the server's version holds a NUL"),
      },
    ])
    expect(readdirSync(b.deps.teamDir)).toEqual(['ok.md'])
  })

  it('pull: server wins per key, matching files keep their mtime, local deletes come back', async () => {
    const { a, b } = await twoClients()
    writeFile(join(a.deps.teamDir, 'x.md'), 'server\n')
    writeFile(join(a.deps.teamDir, 'y.md'), 'same\n')
    await pushTeamMemory(a.deps)
    writeFile(join(b.deps.teamDir, 'x.md'), 'local edit\n')
    writeFile(join(b.deps.teamDir, 'y.md'), 'same\n')
    const overwritten: string[] = []
    b.deps.beforeOverwrite = (key, _p, prev) => void overwritten.push(`${key}:${prev}`)
    const r = await pullTeamMemory(b.deps)
    expect(r).toMatchObject({ pulled: ['x.md'], unchanged: 1 })
    expect(readFileSync(join(b.deps.teamDir, 'x.md'), 'utf8')).toBe('server\n')
    expect(overwritten).toEqual(['x.md:local edit\n'])
    rmSync(join(b.deps.teamDir, 'y.md'))
    expect((await pullTeamMemory(b.deps)).pulled).toEqual(['y.md'])
    expect((await pullTeamMemory(b.deps)).pulled).toEqual([]) // now a 304
  })

  it('pull writes over what it read only: a save made while it ran is kept, to be pushed', async () => {
    const { a, b } = await twoClients()
    writeFile(join(a.deps.teamDir, 'x.md'), 'server\n')
    await pushTeamMemory(a.deps)
    writeFile(join(b.deps.teamDir, 'x.md'), 'local edit\n')
    // The user saves again between the pull's read of the file and its write.
    b.deps.beforeOverwrite = (_key, path) => void writeFile(path, 'saved meanwhile\n')
    const r = await pullTeamMemory(b.deps)
    expect(r.pulled).toEqual([])
    expect(r.pending).toEqual(['x.md'])
    expect(readFileSync(join(b.deps.teamDir, 'x.md'), 'utf8')).toBe('saved meanwhile\n')
    b.deps.beforeOverwrite = undefined
    expect((await pushTeamMemory(b.deps)).pushed).toEqual(['x.md'])
  })

  it('a symlink in team/ pointing outside makes pull refuse that key and write nothing there', async () => {
    const { a, b } = await twoClients()
    const outside = writeFile(join(tempDir(), 'authorized_keys'), 'ssh-ed25519 AAAA original\n')
    writeFile(join(a.deps.teamDir, 'evil.md'), 'ssh-ed25519 AAAA attacker\n')
    writeFile(join(a.deps.teamDir, 'fine.md'), 'ok\n')
    await pushTeamMemory(a.deps)
    symlinkSync(outside, join(b.deps.teamDir, 'evil.md'))
    const r = await pullTeamMemory(b.deps)
    expect(r.pulled).toEqual(['fine.md'])
    expect(r.skipped[0]).toMatchObject({
      key: 'evil.md',
      kind: 'invalid_key',
      reason: expect.stringContaining('symlink'),
    })
    expect(readFileSync(outside, 'utf8')).toBe('ssh-ed25519 AAAA original\n')
  })

  it('a key with terminal escapes on the server (an older server let it in) is refused on pull and never becomes a file', async () => {
    const { server, b } = await twoClients()
    await server.store.upsert(REPO, { 'ctl\u0001\u001b[31m.md': 'x', 'ok.md': 'fine' }, undefined, 100)
    const r = await pullTeamMemory(b.deps)
    expect(r.pulled).toEqual(['ok.md'])
    expect(r.skipped[0]).toMatchObject({ kind: 'invalid_key', reason: expect.stringContaining('control') })
    expect(readdirSync(b.deps.teamDir)).toEqual(['ok.md'])
  })
})

describe('validateTeamMemWritePath', () => {
  it('refuses escaping names (INVALID_NAME) and symlinked dirs, dangling links and loops (PathTraversalError)', async () => {
    const root = tempDir()
    const team = join(root, 'team')
    mkdirSync(team)
    mkdirSync(join(root, 'outside'))
    symlinkSync(join(root, 'outside'), join(team, 'linkdir'))
    symlinkSync(join(root, 'nowhere'), join(team, 'dangling.md'))
    symlinkSync(join(team, 'loop-b'), join(team, 'loop-a'))
    symlinkSync(join(team, 'loop-a'), join(team, 'loop-b'))
    for (const key of ['../x.md', '/etc/x.md', 'a\\b.md', 'a\0.md', '%2e%2e/x.md', '\uff0e\uff0e/x.md']) {
      await expect(validateTeamMemWritePath(team, key), key).rejects.toMatchObject({ code: 'INVALID_NAME' })
    }
    for (const key of ['linkdir/x.md', 'dangling.md', 'loop-a/x.md']) {
      await expect(validateTeamMemWritePath(team, key), key).rejects.toBeInstanceOf(PathTraversalError)
    }
    expect(await validateTeamMemWritePath(team, 'sub/new.md')).toBe(join(team, 'sub', 'new.md'))
    expect(existsSync(join(root, 'outside', 'x.md'))).toBe(false)
  })
})

describe('batching and retries', () => {
  it('plans greedy batches under 200,000 bytes, an oversized entry alone', () => {
    const entries = new Map([
      ['a.md', 'x'.repeat(120_000)],
      ['b.md', 'x'.repeat(120_000)],
      ['c.md', 'x'.repeat(10)],
      ['d.md', 'x'.repeat(240_000)],
    ])
    expect(planBatches([...entries.keys()], entries)).toEqual([['a.md'], ['b.md', 'c.md'], ['d.md']])
  })

  it('backs off 500 ms × 2^(n−1) with ≤ 25% jitter, capped at 32 s', () => {
    expect(retryDelayMs(1, () => 0)).toBe(500)
    expect(retryDelayMs(3, () => 0)).toBe(2000)
    expect(retryDelayMs(3, () => 1)).toBe(2500)
    expect(retryDelayMs(20, () => 0)).toBe(32_000)
  })

  it('retries transient errors 3 times and never retries permanent ones', async () => {
    const delays: number[] = []
    let calls = 0
    await expect(
      withRetries(
        async () => {
          calls++
          throw new TeamApiError('503', 503, false)
        },
        { sleep: async (ms) => void delays.push(ms), random: () => 0 },
      ),
    ).rejects.toThrow('503')
    expect(calls).toBe(4)
    expect(delays).toEqual([500, 1000, 2000])
    calls = 0
    await expect(
      withRetries(async () => (calls++, Promise.reject(new TeamApiError('401', 401, true)))),
    ).rejects.toThrow()
    expect(calls).toBe(1)
  })

  it('a full server ends the push with its limit; once known, the first keys that fit go and the rest are reported', async () => {
    const server = await startTeamServer({ maxEntries: 2 })
    const token = await server.token(REPO)
    const c = client(server.url, token, join(tempDir(), 'team'))
    for (const k of ['c', 'a', 'b']) writeFile(join(c.deps.teamDir, `${k}.md`), k)
    const full = await pushTeamMemory(c.deps).catch((e: unknown) => e)
    expect(full).toBeInstanceOf(TeamApiError)
    expect(full).toMatchObject({ status: 413, permanent: true })
    expect((full as Error).message).toMatch(/at most 2 keys .* holds 0.*3 new keys/s)
    const r = await pushTeamMemory(c.deps)
    expect(r.pushed.sort()).toEqual(['a.md', 'b.md'])
    expect(r.skipped).toEqual([
      { key: 'c.md', kind: 'over_entry_limit', reason: expect.stringContaining('at most 2') },
    ])
    expect(c.deps.state.serverMaxEntries).toBe(2)
  })

  it('a server that holds one key says so in the singular', async () => {
    const server = await startTeamServer({ maxEntries: 1 })
    const c = client(server.url, await server.token(REPO), join(tempDir(), 'team'))
    for (const k of ['a', 'b']) writeFile(join(c.deps.teamDir, `${k}.md`), k)
    const full = (await pushTeamMemory(c.deps).catch((e: unknown) => e)) as Error
    expect(full.message).toMatch(/may hold at most 1 key on the team server and holds 0\..*2 new keys/s)
  })

  it('a server or a proxy that takes smaller requests than a batch gets smaller batches; a file too large alone is reported', async () => {
    const files = (dir: string) => {
      for (let i = 0; i < 12; i++)
        writeFile(join(dir, `note-${String(i).padStart(2, '0')}.md`), `${i} ${'x'.repeat(20_000)}`)
      writeFile(join(dir, 'huge.md'), 'y'.repeat(70_000))
    }
    // The team server run with --max-body 50000, and nginx with client_max_body_size 50k before it.
    const own = await startTeamServer({ maxBodyBytes: 50_000 })
    const direct = await startTeamServer()
    const proxy = await startProxy(direct.url, { maxBodyBytes: 50_000 })
    for (const [url, server] of [
      [own.url, own],
      [proxy.url, direct],
    ] as const) {
      const token = await server.token(REPO)
      const c = client(url, token, join(tempDir(), 'team'))
      files(c.deps.teamDir)
      const r = await pushTeamMemory(c.deps)
      expect(r.pushed).toHaveLength(12)
      expect(r.skipped).toEqual([
        { key: 'huge.md', kind: 'too_large', reason: expect.stringMatching(/refuses a request this large/) },
      ])
      // Halving found the size: a few refused requests, not one per file.
      expect(c.puts.length).toBeLessThan(r.batches + 6)
      const stored = await server.store.getRepo(await storedRepoName(server.store, REPO))
      expect([...stored!.entries.keys()].sort()).toEqual(
        [...Array(12).keys()].map((i) => `note-${String(i).padStart(2, '0')}.md`),
      )
      // The next sync has nothing left to send but the file no request can carry.
      const again = await pushTeamMemory(c.deps)
      expect(again.pushed).toEqual([])
    }
    proxy.close()
  })

  it('a push the server refused leaves no note that it may have been stored', async () => {
    const server = await startTeamServer({ maxEntries: 2 })
    const token = await server.token(REPO)
    const c = client(server.url, token, join(tempDir(), 'team'))
    const statePath = join(tempDir(), 'sync-state.json')
    c.deps.base = new SyncBase(statePath)
    for (const k of ['c', 'a', 'b']) writeFile(join(c.deps.teamDir, `${k}.md`), k)
    await expect(pushTeamMemory(c.deps)).rejects.toMatchObject({ status: 413 })
    // The server answered: nothing of the batch is there, so nothing of it is "maybe stored".
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toEqual({ keys: {} })
    const r = await pushTeamMemory(c.deps)
    expect(r.pushed.sort()).toEqual(['a.md', 'b.md'])
    expect(
      Object.keys((JSON.parse(readFileSync(statePath, 'utf8')) as { keys: object }).keys).sort(),
    ).toEqual(['a.md', 'b.md'])
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).not.toHaveProperty('pushing')
  })

  it('a key a teammate on macOS or Windows could not hold beside another is reported and not sent; the rest go', async () => {
    const { server, a } = await twoClients()
    writeFile(join(a.deps.teamDir, 'Ops', 'deploy.md'), 'staging first\n')
    await pushTeamMemory(a.deps)
    // Linux holds all of these side by side; APFS and NTFS do not.
    writeFile(join(a.deps.teamDir, 'ops', 'rollback.md'), 'roll back with the tag\n')
    writeFile(join(a.deps.teamDir, 'Runbook.md'), 'R\n')
    writeFile(join(a.deps.teamDir, 'runbook.md'), 'r\n')
    writeFile(join(a.deps.teamDir, 'fresh.md'), 'new\n')
    const r = await pushTeamMemory(a.deps)
    expect(r.pushed.sort()).toEqual(['Runbook.md', 'fresh.md'])
    expect(r.skipped).toEqual([
      {
        key: 'ops/rollback.md',
        kind: 'key_twin',
        reason:
          'not uploaded: it cannot join Ops/deploy.md: ops and Ops would be one folder on macOS and Windows',
      },
      {
        key: 'runbook.md',
        kind: 'key_twin',
        reason:
          'not uploaded: it cannot join Runbook.md: runbook.md and Runbook.md would be one file on macOS and Windows',
      },
    ])
    expect([...(await server.store.getRepo(REPO))!.entries.keys()].sort()).toEqual([
      'Ops/deploy.md',
      'Runbook.md',
      'fresh.md',
    ])
  })

  it('a server that redirects gets a clear error, and nothing reaches where it points', async () => {
    const elsewhere: string[] = []
    const other = createServer((req, res) => {
      elsewhere.push(`${req.method} ${req.url}`)
      res.end('{}')
    })
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
    const to = `http://127.0.0.1:${(other.address() as AddressInfo).port}/collect`
    const redirecting = createServer((_req, res) => {
      res.writeHead(307, { location: to })
      res.end()
    })
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r))
    try {
      const c = client(
        `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
        'tmt_x',
        join(tempDir(), 'team'),
      )
      writeFile(join(c.deps.teamDir, 'deploy.md'), 'the staging password rotates monthly')
      const err = await pushTeamMemory(c.deps).catch((e) => e)
      expect(err).toBeInstanceOf(TeamApiError)
      expect(err).toMatchObject({ status: 307, permanent: true })
      expect(err.message).toContain(`a redirect to ${to}`)
      expect(await pullTeamMemory(c.deps).catch((e) => e)).toMatchObject({ status: 307, permanent: true })
      expect(elsewhere).toEqual([])
    } finally {
      redirecting.close()
      other.close()
    }
  })

  it('a server that takes the connection and never answers, or stalls mid-answer, ends the sync within its time and retries', async () => {
    const held: ServerResponse[] = []
    const stalling = createServer((req, res) => {
      held.push(res)
      // GET: headers, then half a document and nothing more; PUT: nothing at all.
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"organizationId":"o","repo":"acme/shop",')
      }
    })
    await new Promise<void>((r) => stalling.listen(0, '127.0.0.1', r))
    try {
      const teamDir = join(tempDir(), 'team')
      writeFile(join(teamDir, 'deploy.md'), 'staging first\n')
      const api = new TeamApiClient({
        baseUrl: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`,
        token: 'tmt_x',
        timeoutMs: 300,
      })
      const deps: SyncDeps = { api, repo: REPO, teamDir, state: createSyncState(), sleep: async () => {} }
      const started = Date.now()
      const err = await syncTeamMemory(deps).catch((e) => e)
      expect(err).toBeInstanceOf(TeamApiError)
      expect(err.message).toContain('team server did not answer within 0.3 s')
      expect(held.length).toBe(4) // the first try and its 3 retries
      expect(Date.now() - started).toBeLessThan(10_000)
      const put = await api.put(REPO, { 'deploy.md': 'x' }).catch((e) => e)
      expect(put).toMatchObject({ permanent: false, message: 'team server did not answer within 0.3 s' })
    } finally {
      for (const res of held) res.destroy()
      stalling.close()
    }
  })

  it('a busy server (429 or 503 with Retry-After) is tried again no sooner than it asks, and a long wait ends the sync for the scheduler', async () => {
    let answer = { status: 429, retryAfter: '3' }
    const seen: number[] = []
    const busy = createServer((_req, res) => {
      seen.push(Date.now())
      res.writeHead(answer.status, { 'retry-after': answer.retryAfter, 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { code: 'busy', message: 'slow down' } }))
    })
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    try {
      const teamDir = join(tempDir(), 'team')
      mkdirSync(teamDir, { recursive: true })
      const api = new TeamApiClient({
        baseUrl: `http://127.0.0.1:${(busy.address() as AddressInfo).port}`,
        token: 't',
      })
      const waits: number[] = []
      const deps: SyncDeps = {
        api,
        repo: REPO,
        teamDir,
        state: createSyncState(),
        sleep: async (ms) => void waits.push(ms),
        random: () => 0,
      }
      const err = await pullTeamMemory(deps).catch((e) => e)
      expect(err).toMatchObject({ permanent: false, retryAfterMs: 3000 })
      expect(err.message).toBe('team server answered 429: slow down (it asks to wait 3 s)')
      // Backoff alone would have been 500, 1000 and 2000 ms.
      expect(waits).toEqual([3000, 3000, 3000])
      expect(seen.length).toBe(4)

      // An hour is longer than a sync waits: one request, and the error carries the wait.
      answer = { status: 503, retryAfter: new Date(Date.now() + 3600_000).toUTCString() }
      seen.length = 0
      waits.length = 0
      const long = await pullTeamMemory({ ...deps, state: createSyncState() }).catch((e) => e)
      expect(seen.length).toBe(1)
      expect(waits).toEqual([])
      expect(long.message).toMatch(/^team server answered 503: slow down \(it asks to wait (59|60) min\)$/)
      expect(long.retryAfterMs).toBeGreaterThan(3590_000)
    } finally {
      busy.close()
    }
  })

  it('an endless answer is read only up to its limit: a permanent error, the connection closed, nothing written', async () => {
    let closed = false
    const endless = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = '{"x":"' + 'y'.repeat(64 * 1024)
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump)
      }
      res.on('close', () => (closed = true))
      pump()
    })
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r))
    try {
      const teamDir = join(tempDir(), 'team')
      mkdirSync(teamDir, { recursive: true })
      const api = new TeamApiClient({
        baseUrl: `http://127.0.0.1:${(endless.address() as AddressInfo).port}`,
        token: 't',
        maxAnswerBytes: 1024 * 1024,
      })
      const deps: SyncDeps = { api, repo: REPO, teamDir, state: createSyncState(), sleep: async () => {} }
      const err = await pullTeamMemory(deps).catch((e) => e)
      expect(err).toMatchObject({ permanent: true })
      expect(err.message).toBe("team server's answer is over 1 MiB: Memdir reads no more of it")
      await until(() => closed)
      expect(readdirSync(teamDir)).toEqual([])
    } finally {
      endless.close()
    }
  })

  it('a server that answers with another repo’s document changes nothing here, neither writes nor removes', async () => {
    const server = await startTeamServer()
    const token = await server.token('*')
    const { deps } = client(server.url, token, join(tempDir(), 'team'))
    writeFile(join(deps.teamDir, 'deploy.md'), 'staging first\n')
    await pushTeamMemory(deps)
    // Another project's memory, on the same server.
    const other = client(server.url, token, join(tempDir(), 'team'))
    writeFile(join(other.deps.teamDir, 'billing.md'), 'theirs\n')
    await pushTeamMemory({ ...other.deps, repo: 'acme/billing' })
    // A proxy in front of the server that serves acme/billing's document for every repo.
    const misrouting = createServer((req, res) => {
      const url = new URL(req.url!, server.url)
      url.searchParams.set('repo', 'acme/billing')
      void fetch(url, { headers: { authorization: req.headers.authorization! } }).then(async (r) => {
        res.writeHead(r.status, { 'content-type': 'application/json', etag: r.headers.get('etag') ?? '' })
        res.end(await r.text())
      })
    })
    await new Promise<void>((r) => misrouting.listen(0, '127.0.0.1', r))
    try {
      const api = new TeamApiClient({
        baseUrl: `http://127.0.0.1:${(misrouting.address() as AddressInfo).port}`,
        token,
      })
      const err = await pullTeamMemory({ ...deps, api }).catch((e) => e)
      expect(err).toMatchObject({ permanent: true })
      expect(err.message).toBe(
        'team server answered with the team memory of "acme/billing" when asked for acme/shop: nothing of it is written',
      )
      expect(readdirSync(deps.teamDir)).toEqual(['deploy.md'])
      expect(readFileSync(join(deps.teamDir, 'deploy.md'), 'utf8')).toBe('staging first\n')
    } finally {
      misrouting.close()
    }
  })

  it('a token pasted with a line break is refused before sending, and the error never quotes it', async () => {
    const server = await startTeamServer()
    const c = client(server.url, 'tmt_pasted_secret\n', join(tempDir(), 'team'))
    const err = await pullTeamMemory(c.deps).catch((e) => e)
    expect(err).toMatchObject({ permanent: true })
    expect(err.message).toBe(
      'the team token holds a line break (character 18 of 18), which no team token has: copy it again',
    )
    expect(c.requests).toEqual([]) // nothing went out, and no retry was spent on it
  })

  it('a wrong token is a permanent error', async () => {
    const server = await startTeamServer()
    const c = client(server.url, 'tmt_wrong', join(tempDir(), 'team'))
    const err = await pullTeamMemory(c.deps).catch((e) => e)
    expect(err).toBeInstanceOf(TeamApiError)
    expect(err.permanent).toBe(true)
    expect(err.message).toContain('not authorized')
  })
})
