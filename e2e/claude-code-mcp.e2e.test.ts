import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
  type RecordedRequest,
} from '../test/fake-anthropic/server.js'
import { assertCliBuilt, BIN } from '../test/helpers/built-cli.js'
import { sandbox, writeFile } from '../test/helpers/temp-env.js'
import { HistoryStore } from '../src-main/core/history/history-store.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { historyDirFor } from '../src-main/host/settings/app-data.js'
import {
  CLIENT_VERSIONS,
  clientEnv,
  realClient,
  runClient,
  writeClientConfig,
  type ClientOrSkip,
} from './real-client.js'

/**
 * Memdir as an MCP server of the real Claude Code client, added the way a user adds it
 * (`claude mcp add`): the model searches memory, then saves one, and each answer reaches its next
 * request. The newest clients defer MCP tools behind their tool search: the model loads them first.
 */
type Message = { role: string; content: unknown }
type Block = { type?: string; name?: string; id?: string; content?: unknown }

const fakes: FakeAnthropic[] = []
afterEach(async () => {
  while (fakes.length) await fakes.pop()!.close()
})

const SEARCH = 'mcp__memdir__memory_search'
const WRITE = 'mcp__memdir__memory_write'

/** The tool the assistant called just before the last user message (the one its result answers). */
function answeredTool(req: RecordedRequest): string | undefined {
  const msgs = req.body.messages as Message[]
  const lastUser = msgs.findLastIndex((m) => m.role === 'user')
  const blocks = msgs[lastUser - 1]?.content
  return Array.isArray(blocks) ? (blocks as Block[]).findLast((b) => b.type === 'tool_use')?.name : undefined
}

type ResultBlock = { type: string; content?: { type: string; text: string }[] | string }
/** The text of the last tool result a request carries (newer clients put a system message last). */
function lastToolResult(r: RecordedRequest): string | undefined {
  const messages = (r.body.messages ?? []) as { role: string; content: ResultBlock[] | string }[]
  for (const m of [...messages].reverse()) {
    if (typeof m.content === 'string') continue
    const result = m.content.find((b) => b.type === 'tool_result')
    if (!result) continue
    return typeof result.content === 'string' ? result.content : result.content?.map((c) => c.text).join('')
  }
  return undefined
}

describe.each(CLIENT_VERSIONS)('Claude Code %s with Memdir as its MCP server', (requested) => {
  let found: ClientOrSkip = {}
  beforeAll(() => {
    assertCliBuilt()
    found = realClient(requested)
  }, 600_000)

  it('`claude mcp add`, then the model searches memory and saves a memory; each answer reaches it', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const client = found.client
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    delete sb.env.CLAUDE_CONFIG_DIR
    clearAutoMemPathCache()
    const ctx = sb.ctx({ env: sb.env })
    const memoryDir = getAutoMemPath(ctx)
    writeFile(
      join(memoryDir, 'testing.md'),
      '---\nname: Integration tests\ndescription: integration tests run against a real postgres database, never mocks\ntype: feedback\n---\n\nNever mock the database; set TEST_DATABASE_URL.\n',
    )
    writeClientConfig(sb.home, sb.project)

    const steps: string[] = []
    const fake = await startFakeAnthropic([], {
      fallback: {
        kind: 'dynamic',
        respond: (req) => {
          if (!JSON.stringify(req.body.messages).includes('[mcp]')) return reply(text('ok'))
          const tools = ((req.body.tools as { name: string }[] | undefined) ?? []).map((x) => x.name)
          const answered = answeredTool(req)
          steps.push(answered ?? 'prompt')
          if (answered === WRITE) return reply(text('Saved the release checklist.'))
          if (answered === SEARCH)
            return reply(
              toolUse(WRITE, {
                name: 'Release checklist',
                description: 'what to check before tagging a release',
                type: 'project',
                body: 'Run the e2e suite; bump the version.',
                reason: 'learned in this session',
              }),
            )
          if (tools.includes(SEARCH))
            return reply(toolUse(SEARCH, { query: 'how do we run the integration tests' }))
          // The newest clients list MCP tools by name only until the model loads them.
          if (tools.includes('ToolSearch'))
            return reply(toolUse('ToolSearch', { query: `select:${SEARCH},${WRITE}` }))
          return reply(text('The memdir tools are not there.'))
        },
      },
    })
    fakes.push(fake)
    const env = clientEnv(sb.env, fake.url)
    const added = await runClient(
      client,
      ['mcp', 'add', 'memdir', '--', process.execPath, BIN, 'mcp', '--cwd', sb.project],
      {
        cwd: sb.project,
        env,
      },
    )
    expect(added.code, added.out).toBe(0)
    const run = await runClient(
      client,
      [
        '-p',
        '[mcp] How do we run the integration tests? Note the release checklist.',
        '--dangerously-skip-permissions',
      ],
      {
        cwd: sb.project,
        env,
      },
    )
    expect(run.code, run.out).toBe(0)

    const mcp = fake.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes('[mcp]'))
    // The newest clients defer MCP tools: the model loaded them through the tool search first.
    const listed = ((mcp[0]!.body.tools as { name: string }[]) ?? []).some((x) => x.name === SEARCH)
    expect(listed).toBe(client.version === '2.1.88')
    if (!listed) expect(mcp.some((r) => answeredTool(r) === 'ToolSearch')).toBe(true)
    // The search's answer (the recalled memory, as recall injects it) reached the model...
    const afterSearch = mcp.find((r) => answeredTool(r) === SEARCH)
    expect(
      afterSearch,
      `the model never got the search answer: ${steps.join(' → ')}\n${run.out}`,
    ).toBeDefined()
    const searchAnswer = JSON.stringify((afterSearch!.body.messages as Message[]).at(-1))
    expect(searchAnswer).toContain('1 relevant among 1 memory')
    expect(searchAnswer).toContain('Never mock the database')
    // ...and so did the write's, after the memory was saved as this client writes memories,
    // indexed and recorded as the client's.
    const file = client.version === '2.1.88' ? 'release_checklist.md' : 'release-checklist.md'
    const afterWrite = mcp.find((r) => answeredTool(r) === WRITE)
    expect(afterWrite).toBeDefined()
    expect(JSON.stringify((afterWrite!.body.messages as Message[]).at(-1))).toContain(file)
    const saved = readFileSync(join(memoryDir, file), 'utf8')
    if (client.version === '2.1.88')
      expect(saved).toMatch(/^---\nname: Release checklist\n.*\ntype: project\n---/s)
    else
      expect(saved).toMatch(
        /^---\nname: release-checklist\n.*\nmetadata:\n {2}node_type: memory\n {2}type: project\n {2}modified: /s,
      )
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain(`(${file})`)
    const history = await new HistoryStore(historyDirFor(ctx, memoryDir)).list({ path: file })
    expect(history.map((e) => e.author)).toEqual(['mcp'])
  }, 300_000)

  it('pages through memory_list over 300 memories, every page reaching the model whole', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    delete sb.env.CLAUDE_CONFIG_DIR
    clearAutoMemPathCache()
    const memoryDir = getAutoMemPath(sb.ctx({ env: sb.env }))
    const description = 'a one-line description of what this memory holds, as long as they get, '.repeat(2)
    for (let i = 0; i < 300; i++)
      writeFile(
        join(memoryDir, `note_${i}.md`),
        `---\nname: Note ${i}\ndescription: ${description}${i}\ntype: project\n---\n\nbody ${i}\n`,
      )
    writeClientConfig(sb.home, sb.project, {})
    const config = join(sb.root, 'mcp.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { memdir: { command: process.execPath, args: [BIN, 'mcp', '--cwd', sb.project] } },
      }),
    )
    const answers: string[] = []
    const fake = await startFakeAnthropic([], {
      fallback: {
        kind: 'dynamic',
        respond: (req) => {
          const sent = JSON.stringify(req.body.messages ?? [])
          if (!sent.includes('[list-all]')) return reply(text('ok'))
          const answer = lastToolResult(req)
          if (answer === undefined) return reply(toolUse('mcp__memdir__memory_list', {}))
          answers.push(answer)
          const next = /"next_offset":(\d+)/.exec(answer)
          if (next && answers.length < 10)
            return reply(toolUse('mcp__memdir__memory_list', { offset: Number(next[1]) }))
          return reply(text('Listed them all.'))
        },
      },
    })
    fakes.push(fake)
    const run = await runClient(
      found.client,
      ['-p', '[list-all] List every memory.', '--mcp-config', config, '--dangerously-skip-permissions'],
      { cwd: sb.project, env: clientEnv(sb.env, fake.url) },
    )
    expect(run.code, run.out).toBe(0)
    expect(answers.length).toBeGreaterThan(1)
    const listed = answers.flatMap((a) => {
      expect(a).not.toContain('persisted-output')
      return (JSON.parse(a) as { memories: { relPath: string }[] }).memories.map((m) => m.relPath)
    })
    expect(new Set(listed).size).toBe(300)
  }, 300_000)
})
