import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../test/helpers/temp-env.js'
import { checkIndex } from '../core/health/index-checks.js'
import { HistoryStore } from '../core/history/history-store.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'
import { ProposalStore } from '../core/review/proposals.js'
import { activityFileFor, readActivity } from '../host/activity/activity-store.js'
import { historyDirFor, proposalsDirFor } from '../host/settings/app-data.js'

const MAIN = join(import.meta.dirname, '..', 'cli', 'entry.ts')
const clients: Client[] = []
afterEach(async () => {
  while (clients.length) await clients.pop()!.close()
})

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean }

/** `memdir mcp` as a real child process, spoken to by the SDK's own client over stdio. */
async function connect(env: Record<string, string | undefined>, cwd: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', MAIN, 'mcp', '--cwd', cwd],
    env: { PATH: process.env.PATH ?? '', ...env } as Record<string, string>,
    stderr: 'pipe',
  })
  const client = new Client({ name: 'memdir-test-client', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as ToolResult
    return { ...r, text: r.content.map((c) => c.text).join('\n') }
  }
  return { client, call }
}

function setup(extra: Record<string, string> = {}) {
  const sb = sandbox({ MEMDIR_TEAM_MEMORY: '1', ...extra })
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  clearAutoMemPathCache()
  const ctx = sb.ctx()
  const memoryDir = getAutoMemPath(ctx)
  writeFile(
    join(memoryDir, 'testing.md'),
    '---\nname: Testing\ndescription: integration tests hit a real postgres database, never mocks\ntype: feedback\n---\n\nRun `npm test` with TEST_DATABASE_URL set.\n',
  )
  writeFile(join(memoryDir, 'MEMORY.md'), '- [Testing](testing.md) — integration tests hit a real postgres\n')
  return { sb, ctx, memoryDir }
}

describe('memdir mcp (the SDK client over stdio)', () => {
  it('lists, reads, searches, writes (with conflict and secret refusal) and deletes', async () => {
    const { sb, ctx, memoryDir } = setup()
    const { client, call } = await connect(sb.env, sb.project)

    const tools = (await client.listTools()).tools.map((t) => t.name).sort()
    expect(tools).toEqual(['memory_delete', 'memory_list', 'memory_read', 'memory_search', 'memory_write'])

    const list = JSON.parse((await call('memory_list', {})).text) as {
      total: number
      memories: { relPath: string }[]
    }
    expect(list.total).toBe(1)
    expect(list.memories.map((m) => m.relPath)).toEqual(['testing.md'])
    expect(list).not.toHaveProperty('next_offset')

    const search = await call('memory_search', { query: 'how do we run the postgres integration tests' })
    expect(search.isError).toBeFalsy()
    expect(search.text).toMatch(/^1 relevant among 1 memory \(offline ranking/)
    expect(search.text).toContain(`Memory (saved today): ${join(memoryDir, 'testing.md')}:`)
    expect(search.text).toContain('Run `npm test` with TEST_DATABASE_URL set.')

    const created = await call('memory_write', {
      name: 'Deploy freeze',
      description: 'no deploys on Fridays after 3pm',
      type: 'project',
      body: 'Deploys are frozen on Fridays after 3pm; ask in #release first.',
    })
    expect(created.isError).toBeFalsy()
    expect(JSON.parse(created.text)).toMatchObject({
      status: 'created',
      memory: { relPath: 'deploy_freeze.md', hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    // The text the agent just sent is not echoed back (twice, as body and raw, it was).
    expect(JSON.parse(created.text).memory).not.toHaveProperty('body')
    expect(created.text).not.toContain('ask in #release first')
    expect(readFileSync(join(memoryDir, 'deploy_freeze.md'), 'utf8')).toContain(
      'description: no deploys on Fridays',
    )
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('(deploy_freeze.md)')

    const again = await call('memory_write', { name: 'Deploy freeze', description: 'x', body: 'y' })
    expect(again.isError).toBe(true)
    expect(again.text).toMatch(/^EXISTS: .*expected_hash/)

    const read = JSON.parse((await call('memory_read', { path: 'deploy_freeze.md' })).text) as {
      hash: string
    }
    writeFileSync(
      join(memoryDir, 'deploy_freeze.md'),
      '---\nname: Deploy freeze\ndescription: edited by hand\ntype: project\n---\nhand edit\n',
    )
    const stale = await call('memory_write', {
      path: 'deploy_freeze.md',
      name: 'Deploy freeze',
      description: 'no deploys on Fridays',
      body: 'agent edit',
      expected_hash: read.hash,
    })
    expect(stale.isError).toBe(true)
    expect(stale.text).toMatch(/^CONFLICT: the memory changed since you read it/)
    expect(readFileSync(join(memoryDir, 'deploy_freeze.md'), 'utf8')).toContain('hand edit')

    const fresh = JSON.parse((await call('memory_read', { path: 'deploy_freeze.md' })).text) as {
      hash: string
    }
    const updated = await call('memory_write', {
      path: 'deploy_freeze.md',
      name: 'Deploy freeze',
      description: 'no deploys on Fridays after 3pm',
      body: 'merged edit',
      expected_hash: fresh.hash,
    })
    expect(JSON.parse(updated.text)).toMatchObject({ status: 'updated' })

    const secret = await call('memory_write', {
      name: 'CI token',
      description: 'the token CI uses',
      scope: 'team',
      body: 'export GITHUB_TOKEN=ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
    })
    expect(secret.isError).toBe(true)
    expect(secret.text).toMatch(/^SECRET_IN_TEAM_MEMORY: /)
    expect(existsSync(join(memoryDir, 'team', 'ci_token.md'))).toBe(false)

    const badArgs = await call('memory_read', {})
    expect(badArgs.isError).toBe(true)
    expect(badArgs.text).toContain('path')

    const del = await call('memory_delete', { path: 'testing.md', expected_hash: 'f'.repeat(64) })
    expect(del.text).toMatch(/^CONFLICT/)
    const t = JSON.parse((await call('memory_read', { path: 'testing.md' })).text) as { hash: string }
    expect(
      JSON.parse((await call('memory_delete', { path: 'testing.md', expected_hash: t.hash })).text),
    ).toEqual({
      status: 'deleted',
      path: 'testing.md',
    })
    expect(existsSync(join(memoryDir, 'testing.md'))).toBe(false)
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).not.toContain('testing.md')

    // Every write is in history as the MCP client's, and the hand edit in between as external.
    const history = new HistoryStore(historyDirFor(ctx, memoryDir))
    const entries = await history.list({ path: 'deploy_freeze.md' })
    expect(entries.map((e) => [e.author, e.client ?? null])).toEqual([
      ['mcp', 'memdir-test-client'],
      ['external', null],
      ['mcp', 'memdir-test-client'],
    ])
    const feed = await readActivity(activityFileFor(ctx, memoryDir))
    expect(feed.map((i) => i.source)).toContain('mcp: memdir-test-client')

    const resources = (await client.listResources()).resources.map((r) => r.uri)
    expect(resources).toContain('memory:///MEMORY.md')
    expect(resources).toContain('memory:///deploy_freeze.md')
    const index = await client.readResource({ uri: 'memory:///MEMORY.md' })
    expect((index.contents[0] as { text: string }).text).toContain('(deploy_freeze.md)')
  })

  it('in review mode a write becomes a proposal in the inbox and nothing is written', async () => {
    const { sb, ctx, memoryDir } = setup()
    mkdirSync(sb.env.MEMDIR_DATA_DIR!, { recursive: true })
    writeFileSync(join(sb.env.MEMDIR_DATA_DIR!, 'settings.json'), JSON.stringify({ reviewMode: true }))
    const { call } = await connect(sb.env, sb.project)
    const r = await call('memory_write', {
      name: 'Release checklist',
      description: 'what to check before tagging a release',
      body: 'Run the e2e suite; bump the version.',
      reason: 'learned during the release',
    })
    expect(JSON.parse(r.text)).toMatchObject({
      status: 'proposed',
      files: ['release_checklist.md', 'MEMORY.md'],
    })
    expect(existsSync(join(memoryDir, 'release_checklist.md'))).toBe(false)
    const [proposal] = await new ProposalStore(proposalsDirFor(ctx, memoryDir)).list()
    expect(proposal).toMatchObject({
      author: 'mcp',
      client: 'memdir-test-client',
      reason: 'learned during the release',
    })
    expect(proposal!.files[0]!.after).toContain('Run the e2e suite')
  })

  it('a search sees what changed since the last one through its caches: an edit in place, a new memory, a deleted one', async () => {
    const { sb, memoryDir } = setup()
    const { call } = await connect(sb.env, sb.project)
    const DAY = 86_400
    const old = (path: string, daysAgo: number) => {
      const t = Date.now() / 1000 - daysAgo * DAY
      utimesSync(path, t, t)
    }
    const testing = join(memoryDir, 'testing.md')
    old(testing, 30) // old enough to be cached
    const kafka = join(memoryDir, 'kafka.md')
    writeFile(
      kafka,
      '---\nname: Kafka lag\ndescription: the orders consumer lags at peak\ntype: project\n---\n\nScale consumers first.\n',
    )
    old(kafka, 20)
    old(memoryDir, 19) // nothing added or removed since: the kept listing holds
    expect((await call('memory_search', { query: 'postgres integration tests' })).text).toMatch(
      /^1 relevant among 2 memories/,
    )
    // Rewritten in place (the dir's mtime does not move): only the file's own stamps tell.
    const dirMtime = statSync(memoryDir).mtimeMs
    writeFileSync(
      testing,
      readFileSync(testing, 'utf8').replace('real postgres database', 'real sqlite database'),
    )
    old(testing, 29)
    expect(statSync(memoryDir).mtimeMs).toBe(dirMtime)
    const edited = await call('memory_search', { query: 'sqlite database tests' })
    expect(edited.text).toMatch(/^1 relevant among 2 memories/)
    expect(edited.text).toContain('real sqlite database')
    rmSync(kafka)
    const gone = await call('memory_search', { query: 'kafka consumer lag at peak' })
    expect(gone.text).toMatch(/among 1 memory/)
    expect(gone.text).not.toContain('kafka.md')
  })

  it('never writes memory.md, which is the index on macOS and Windows, and names non-Latin titles in their script', async () => {
    const { sb, memoryDir } = setup()
    const { call } = await connect(sb.env, sb.project)
    const index = readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')
    const fields = { description: 'what memory is for', type: 'user', body: 'x' }
    const refused = await call('memory_write', { ...fields, name: 'Memory', path: 'memory.md' })
    expect(refused.isError).toBe(true)
    expect(refused.text).toMatch(/INVALID_NAME.*MEMORY\.md only in case/)
    const titled = await call('memory_write', { ...fields, name: 'Memory' })
    expect(titled.isError).toBeFalsy()
    expect(JSON.parse(titled.text).memory.relPath).toBe('memory_note.md')
    for (const name of ['日本語のメモ', 'Заметка о деплое']) {
      const r = await call('memory_write', { ...fields, name })
      expect(r.isError, r.text).toBeFalsy()
    }
    expect(existsSync(join(memoryDir, '日本語のメモ.md'))).toBe(true)
    expect(existsSync(join(memoryDir, 'заметка_о_деплое.md'))).toBe(true)
    expect(existsSync(join(memoryDir, 'memory.md'))).toBe(false)
    const after = readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')
    expect(after.startsWith(index)).toBe(true)
    expect(after).toContain('](memory_note.md)')
  })

  it('updates a memory someone else named as it is listed: a leading space, a colon, a 240-character name', async () => {
    const { sb, memoryDir } = setup()
    const names = [' lead.md', 'deploy:prod.md', `${'a'.repeat(240)}.md`]
    for (const n of names)
      writeFile(join(memoryDir, n), '---\nname: N\ndescription: d\ntype: project\n---\n\nold\n')
    const { call } = await connect(sb.env, sb.project)
    for (const path of names) {
      const read = await call('memory_read', { path })
      expect(read.isError, read.text).toBeFalsy()
      const { hash } = JSON.parse(read.text) as { hash: string }
      const fields = { name: 'N', description: 'd', type: 'project', body: 'new' }
      const w = await call('memory_write', { ...fields, path, expected_hash: hash })
      expect(w.isError, `${path}: ${w.text}`).toBeFalsy()
      expect(JSON.parse(w.text).memory.relPath).toBe(path)
      expect(readFileSync(join(memoryDir, path), 'utf8')).toContain('\nnew\n')
    }
    expect(existsSync(join(memoryDir, 'lead.md'))).toBe(false)
  })

  it('finds a memory a Mac named in NFD by its name typed in NFC: read, update and delete, no twin made', async () => {
    const { sb, memoryDir } = setup()
    const nfd = 'notes/cafe\u0301-re\u0301sume\u0301.md' // "café-résumé", as macOS and rsync leave it
    writeFile(join(memoryDir, nfd), '---\nname: Café\ndescription: d\ntype: project\n---\n\nold\n')
    const typed = nfd.normalize('NFC')
    expect(typed).not.toBe(nfd)
    const { call } = await connect(sb.env, sb.project)
    const read = await call('memory_read', { path: typed })
    expect(read.isError, read.text).toBeFalsy()
    const { hash } = JSON.parse(read.text) as { hash: string }
    const fields = { name: 'Café', description: 'd', type: 'project', body: 'new' }
    const w = await call('memory_write', { ...fields, path: typed, expected_hash: hash })
    expect(w.isError, w.text).toBeFalsy()
    expect(readFileSync(join(memoryDir, nfd), 'utf8')).toContain('\nnew\n')
    expect(existsSync(join(memoryDir, typed))).toBe(false)
    const again = JSON.parse((await call('memory_read', { path: typed })).text) as { hash: string }
    const d = await call('memory_delete', { path: typed, expected_hash: again.hash })
    expect(d.isError, d.text).toBeFalsy()
    expect(existsSync(join(memoryDir, nfd))).toBe(false)
    // A name nothing on disk has in any form is still not found.
    expect((await call('memory_read', { path: 'notes/café-x.md' })).text).toContain('NOT_FOUND')
  })

  it('writes a new memory at the path asked for, a team/ folder inside team/ included', async () => {
    const { sb, memoryDir } = setup()
    const { call } = await connect(sb.env, sb.project)
    const fields = { name: 'N', description: 'd', type: 'project', body: 'b' }
    for (const [args, want] of [
      [{ scope: 'team', path: 'team/team/roster.md' }, 'team/team/roster.md'],
      [{ scope: 'team', path: 'notes/deploy.md' }, 'team/notes/deploy.md'],
      [{ scope: 'team', path: 'team/deploy.md' }, 'team/deploy.md'],
      [{ path: 'team/pulled.md' }, 'team/pulled.md'],
    ] as const) {
      const w = await call('memory_write', { ...fields, ...args })
      expect(w.isError, w.text).toBeFalsy()
      expect(JSON.parse(w.text).memory.relPath).toBe(want)
      expect(existsSync(join(memoryDir, want))).toBe(true)
    }
    expect(existsSync(join(memoryDir, 'team', 'roster.md'))).toBe(false)
  })

  it('a 300-character title is refused with advice about the title, not about a file name', async () => {
    const { sb, memoryDir } = setup()
    const { call } = await connect(sb.env, sb.project)
    const r = await call('memory_write', {
      name: 'Staging deploy checklist '.repeat(12),
      description: 'steps',
      type: 'project',
      body: 'x',
    })
    expect(r.isError).toBe(true)
    expect(r.text).toMatch(/^INVALID_NAME: the name is 300 characters long; a name may be at most 200\. /)
    expect(r.text).toContain('short title')
    expect(r.text).not.toContain('file name')
    const short = await call('memory_write', {
      name: 'Staging deploy checklist',
      description: 'steps',
      type: 'project',
      body: 'x',
    })
    expect(short.isError, short.text).toBeFalsy()
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('(staging_deploy_checklist.md)')
  })

  it('a description with links in it gives a MEMORY.md line that points only at its memory', async () => {
    const { sb, memoryDir } = setup()
    const { call } = await connect(sb.env, sb.project)
    const r = await call('memory_write', {
      name: 'Release keys',
      description: 'signing steps, see [the key](../../../.ssh/id_rsa) and [[../../notes]]',
      type: 'reference',
      body: 'Sign with the release key.',
    })
    expect(r.isError, r.text).toBeFalsy()
    const index = readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')
    expect(index).toContain(
      '- [Release keys](release_keys.md) — signing steps, see [the key] (../../../.ssh/id_rsa)',
    )
    // Health's reading of the index: both memories have their line, and no link leads out.
    expect(checkIndex('MEMORY.md', index, ['release_keys.md', 'testing.md'])).toEqual([])
  })

  it('two agents writing memories at once, each through its own server: every MEMORY.md line is kept', async () => {
    const { sb, memoryDir } = setup()
    const agents = [await connect(sb.env, sb.project), await connect(sb.env, sb.project)]
    const writes = agents.flatMap((agent, a) =>
      Array.from({ length: 6 }, (_, i) =>
        agent.call('memory_write', {
          name: `Agent ${a} note ${i}`,
          description: `what agent ${a} learned, number ${i}`,
          type: 'project',
          body: `note ${i}\n`,
        }),
      ),
    )
    for (const r of await Promise.all(writes)) expect(r.isError, r.text).toBeFalsy()
    const index = readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')
    for (let a = 0; a < 2; a++)
      for (let i = 0; i < 6; i++) expect(index).toContain(`(agent_${a}_note_${i}.md)`)
    expect(index).toContain('(testing.md)')
  })

  it('lists every memory of a large project, in pages an MCP client keeps whole (each under 50,000 characters)', async () => {
    const { sb, memoryDir } = setup()
    const description = 'a one-line description of what this memory holds, as long as they get, '.repeat(2)
    for (let i = 0; i < 450; i++) {
      const file = writeFile(
        join(memoryDir, `note_${String(i).padStart(3, '0')}.md`),
        `---\nname: Note ${i}\ndescription: ${description}${i}\ntype: project\n---\n\nbody ${i}\n`,
      )
      utimesSync(
        file,
        new Date(Date.UTC(2026, 0, 1) + i * 60_000),
        new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      )
    }
    const { call } = await connect(sb.env, sb.project)
    const seen: string[] = []
    let offset: number | undefined = 0
    let pages = 0
    while (offset !== undefined) {
      const r = await call('memory_list', { offset })
      expect(r.isError, r.text).toBeFalsy()
      expect(r.text.length).toBeLessThan(50_000)
      const page = JSON.parse(r.text) as {
        total: number
        next_offset?: number
        memories: { relPath: string }[]
      }
      expect(page.total).toBe(451)
      seen.push(...page.memories.map((m) => m.relPath))
      offset = page.next_offset
      pages++
    }
    expect(pages).toBeGreaterThan(1)
    // Every memory once, newest first: not only the 200 newest a model selector is shown.
    expect(seen).toHaveLength(451)
    expect(new Set(seen).size).toBe(451)
    expect(seen.slice(0, 2)).toEqual(['testing.md', 'note_449.md'])
    expect(seen.at(-1)).toBe('note_000.md')
    // Resources are listed whole by a client: the newest 200, as a model selector sees them.
    const { client } = await connect(sb.env, sb.project)
    const resources = (await client.listResources()).resources.map((r) => r.uri)
    expect(resources.filter((u) => u !== 'memory:///MEMORY.md')).toEqual(
      seen.slice(0, 200).map((p) => `memory:///${p}`),
    )
    const team = JSON.parse((await call('memory_list', { scope: 'team' })).text) as { total: number }
    expect(team.total).toBe(0)
    const bad = await call('memory_list', { offset: -1 })
    expect(bad.isError).toBe(true)
  })

  it('reads a long memory in pages every client passes on whole, and refuses an update written over a part', async () => {
    const { sb, memoryDir } = setup()
    // ~38,000 characters: Codex shows its model ~12,000 of an answer, cutting the middle out.
    const lines = Array.from(
      { length: 600 },
      (_, i) => `${i}: step ${i} of the runbook, with its "quoted" detail.`,
    )
    const body = lines.join('\n') + '\n'
    writeFile(
      join(memoryDir, 'runbook.md'),
      `---\nname: Runbook\ndescription: every step of the release runbook\ntype: reference\n---\n\n${body}`,
    )
    const { call } = await connect(sb.env, sb.project)
    type Page = { hash: string; body: string; body_chars?: number; offset?: number; next_offset?: number }
    const read = async (offset?: number) => {
      const r = await call('memory_read', { path: 'runbook.md', ...(offset === undefined ? {} : { offset }) })
      expect(r.isError, r.text).toBeFalsy()
      expect(r.text.length).toBeLessThanOrEqual(10_000)
      return JSON.parse(r.text) as Page
    }
    const first = await read()
    expect(first.body_chars).toBe(body.length)
    expect(first.next_offset).toBeGreaterThan(0)
    expect(first.body.endsWith('\n')).toBe(true) // cut at a line end
    const update = (expected_hash: string) =>
      call('memory_write', {
        path: 'runbook.md',
        name: 'Runbook',
        description: 'every step of the release runbook',
        type: 'reference',
        body: first.body + 'one more step\n',
        expected_hash,
      })
    // Written back after one page, the other ~28,000 characters would be gone: refused, with where to go on.
    const refused = await update(first.hash)
    expect(refused.isError).toBe(true)
    expect(refused.text).toContain(`memory_read with offset ${first.next_offset}`)
    expect(readFileSync(join(memoryDir, 'runbook.md'), 'utf8')).toContain(lines.at(-1))
    // Page by page, the body comes back exactly, under the one hash.
    let whole = first.body
    let offset = first.next_offset
    while (offset !== undefined) {
      const page = await read(offset)
      expect(page.hash).toBe(first.hash)
      expect(page.offset).toBe(offset)
      whole += page.body
      offset = page.next_offset
    }
    expect(whole).toBe(body)
    // Read to the end, the agent may write it (here: only the first page kept, as it chose to).
    const written = await update(first.hash)
    expect(written.isError, written.text).toBeFalsy()
    // A short memory still comes whole, as before.
    const short = JSON.parse((await call('memory_read', { path: 'testing.md' })).text) as Page
    expect(short).not.toHaveProperty('next_offset')
    expect(short.body).toContain('npm test')
    expect((await call('memory_read', { path: 'testing.md', offset: 10_000 })).isError).toBe(true)
  })

  it('searching a project with no memories says so in words', async () => {
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    clearAutoMemPathCache()
    const { call } = await connect(sb.env, sb.project)
    const r = await call('memory_search', { query: 'how do we deploy to staging' })
    expect(r.isError).toBeFalsy()
    expect(r.text).toBe('No memories to search yet: this project has none.')
    expect(r.text).not.toMatch(/undefined|null|NaN/)
  })
})
