import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { HistoryStore } from '../src-main/core/history/history-store.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { mcpConfigs } from '../src-main/host/integrations/mcp-configs.js'
import { historyDirFor } from '../src-main/host/settings/app-data.js'
import { geminiContents, geminiTools, startFakeGemini } from '../test/fake-providers/gemini.js'
import {
  responsesInput,
  responsesTools,
  startFakeResponses,
} from '../test/fake-providers/openai-responses.js'
import type { FakeProvider, ModelTurn, ProviderRequest } from '../test/fake-providers/recording-server.js'
import { assertCliBuilt, BIN } from '../test/helpers/built-cli.js'
import { AGENTS, installAgent, type AgentName, type InstalledAgent } from '../test/helpers/other-agents.js'
import { sandbox, writeFile, type Sandbox } from '../test/helpers/temp-env.js'
import { installOrSkip, runClient } from './real-client.js'

/**
 * Memdir reaches every agent through MCP. Two real agents from the npm registry, configured with
 * exactly the snippet Settings → Integrations shows, run against fakes of their own model APIs on
 * loopback: the model searches memory, then saves a memory, and each answer reaches its next request.
 */
const fakes: FakeProvider[] = []
afterEach(async () => {
  while (fakes.length) await fakes.pop()!.close()
})

const PROMPT = '[mcp] How do we run the integration tests? Note the release checklist.'
const NEW_MEMORY = {
  name: 'Release checklist',
  description: 'what to check before tagging a release',
  type: 'project',
  body: 'Run the e2e suite; bump the version.',
  reason: 'learned in this session',
}

/** How one agent names Memdir's tools and hands their answers back to the model. */
interface AgentWire {
  start(decide: (req: ProviderRequest) => ModelTurn): Promise<FakeProvider>
  tools(req: ProviderRequest): string[]
  search: string
  write: string
  /** The tool whose answer this request carries last, with that answer. */
  answered(req: ProviderRequest): { tool: string; answer: string } | undefined
  /**
   * Writes the agent's user config (its fake provider) and the Integrations snippet where the panel
   * says it goes, `file` (the project's own config file); returns the agent's environment.
   */
  configure(
    sb: Sandbox,
    fakeUrl: string,
    snippet: string,
    project: string,
    file: string,
  ): Record<string, string>
  args: string[]
}

const WIRES: Record<AgentName, AgentWire> = {
  codex: {
    start: startFakeResponses,
    tools: responsesTools,
    search: 'mcp__memdir/memory_search',
    write: 'mcp__memdir/memory_write',
    answered(req) {
      const input = responsesInput(req)
      const out = input.at(-1)
      if (out?.type !== 'function_call_output') return undefined
      const call = input.find((i) => i.type === 'function_call' && i.call_id === out.call_id)
      return { tool: `${call?.namespace}/${call?.name}`, answer: JSON.stringify(out.output) }
    },
    configure(sb, fakeUrl, snippet, project, file) {
      const config = [
        'model = "fake-model"',
        'model_provider = "fake"',
        '',
        '[model_providers.fake]',
        'name = "Fake Responses API"',
        `base_url = "${fakeUrl}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_OPENAI_API_KEY"',
        '',
        // Off, or Codex tries to fetch plugins and apps from the network.
        '[features]',
        'plugins = false',
        'apps = false',
        '',
        // Codex reads a project's own .codex/config.toml only once the project is trusted.
        `[projects.${JSON.stringify(project)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n')
      writeFile(join(sb.home, '.codex', 'config.toml'), config)
      writeFile(file, `${snippet}\n`)
      return { FAKE_OPENAI_API_KEY: 'sk-fake' }
    },
    args: ['exec', '--skip-git-repo-check', PROMPT],
  },
  gemini: {
    start: startFakeGemini,
    tools: geminiTools,
    search: 'mcp_memdir_memory_search',
    write: 'mcp_memdir_memory_write',
    answered(req) {
      const part = geminiContents(req)
        .at(-1)
        ?.parts?.find((p) => p.functionResponse)?.functionResponse
      return part ? { tool: part.name, answer: JSON.stringify(part.response) } : undefined
    },
    configure(sb, fakeUrl, snippet, _project, file) {
      const settings = { security: { auth: { selectedType: 'gemini-api-key' } } }
      writeFile(join(sb.home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2))
      writeFile(file, `${snippet}\n`)
      return {
        GOOGLE_GEMINI_BASE_URL: fakeUrl,
        GEMINI_API_KEY: 'fake-key',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      }
    },
    // A fixed model: `auto` first asks a classifier model to route the prompt.
    args: ['-m', 'gemini-2.5-flash', '-p', PROMPT],
  },
}

/**
 * The agent, configured with exactly what Settings → Integrations shows for this install and
 * `project`, where it says (the project's own config file), run once in `runIn` (default: the
 * project, from a folder inside it).
 */
function runAgent(
  agent: InstalledAgent,
  wire: AgentWire,
  sb: Sandbox,
  fake: FakeProvider,
  project: string,
  runIn = project,
) {
  const configs = mcpConfigs(process.execPath, [BIN], project)
  const env = {
    HOME: sb.home,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...wire.configure(sb, fake.url, configs[agent.name], project, configs.projectFiles[agent.name]),
  }
  mkdirSync(runIn, { recursive: true })
  return runClient({ cmd: agent.cmd, args: [] }, wire.args, { cwd: runIn, env, timeoutMs: 180_000 })
}

/** A sandbox whose project memory dir the agent's `memdir mcp` serves (no Claude config dir). */
function agentWorld(): { sb: Sandbox; memoryDir: string } {
  const sb = sandbox()
  delete sb.env.CLAUDE_CONFIG_DIR
  clearAutoMemPathCache()
  return { sb, memoryDir: getAutoMemPath(sb.ctx({ env: sb.env, projectRoot: sb.project })) }
}

/**
 * Runs the agent with a model that calls `tool` (its MCP name) with `args`, then again from each
 * answer's next_offset until there is none; returns every answer as it reached the model, each
 * checked not cut on the way.
 */
async function pagedAnswers(
  agent: InstalledAgent,
  wire: AgentWire,
  sb: Sandbox,
  tool: string,
  args: Record<string, unknown>,
): Promise<string[]> {
  const answers: string[] = []
  const fake = await wire.start((req) => {
    if (!JSON.stringify(req.body).includes('[mcp]')) return { text: 'ok' }
    const answered = wire.answered(req)
    if (answered?.tool !== tool) return { call: { name: tool, args } }
    answers.push(answered.answer)
    const next = /\\?"next_offset\\?":\s*(\d+)/.exec(answered.answer)
    if (next && answers.length < 10)
      return { call: { name: tool, args: { ...args, offset: Number(next[1]) } } }
    return { text: 'Done.' }
  })
  fakes.push(fake)
  const run = await runAgent(agent, wire, sb, fake, sb.project)
  expect(run.code, run.out).toBe(0)
  // More than one page, and none cut short on its way to the model (Codex cuts out the middle of a
  // long answer).
  expect(answers.length).toBeGreaterThan(1)
  for (const a of answers) expect(a).not.toMatch(/truncated/)
  return answers
}

describe.each(Object.keys(AGENTS) as AgentName[])('%s CLI with Memdir as its MCP server', (name) => {
  let agent: InstalledAgent | undefined
  let skipped: string | undefined
  beforeAll(() => {
    assertCliBuilt()
    const found = installOrSkip(
      `${name} CLI ${AGENTS[name].version}`,
      'MEMDIR_REQUIRE_AGENTS',
      'test:agents',
      () => installAgent(name),
    )
    agent = found.value
    skipped = found.skipped
  }, 600_000)

  it('the model searches memory, then saves a memory; each answer reaches its next request', async (t) => {
    if (!agent) return t.skip(`no ${name} CLI: ${skipped}`)
    const wire = WIRES[name]
    const sb = sandbox()
    delete sb.env.CLAUDE_CONFIG_DIR
    clearAutoMemPathCache()
    // A path each config format must escape: quotes, a backslash, a space, non-ASCII.
    const project = join(sb.root, 'work', `the "memo" dir\\ ünïcode's`)
    mkdirSync(project, { recursive: true })
    const ctx = sb.ctx({ env: sb.env, projectRoot: project })
    const memoryDir = getAutoMemPath(ctx)
    writeFile(
      join(memoryDir, 'testing.md'),
      '---\nname: Integration tests\ndescription: integration tests run against a real postgres database, never mocks\ntype: feedback\n---\n\nNever mock the database; set TEST_DATABASE_URL.\n',
    )

    const steps: string[] = []
    const fake = await wire.start((req) => {
      if (!JSON.stringify(req.body).includes('[mcp]')) return { text: 'ok' }
      const answered = wire.answered(req)
      steps.push(answered?.tool ?? 'prompt')
      if (answered?.tool === wire.write) return { text: 'Saved the release checklist.' }
      if (answered?.tool === wire.search) return { call: { name: wire.write, args: NEW_MEMORY } }
      if (wire.tools(req).includes(wire.search))
        return { call: { name: wire.search, args: { query: 'how do we run the integration tests' } } }
      return { text: 'The memdir tools are not there.' }
    })
    fakes.push(fake)
    const run = await runAgent(agent, wire, sb, fake, project)
    expect(run.code, run.out).toBe(0)

    const turns = fake.requests.map((r) => ({ req: r, answered: wire.answered(r) }))
    // The search's answer (the recalled memory, as recall injects it) reached the model...
    const afterSearch = turns.find((x) => x.answered?.tool === wire.search)
    expect(
      afterSearch,
      `the model never got the search answer: ${steps.join(' → ')}\n${run.out}`,
    ).toBeDefined()
    expect(afterSearch!.answered!.answer).toContain('1 relevant among 1 memory')
    expect(afterSearch!.answered!.answer).toContain('Never mock the database')
    // ...and so did the write's, naming the memory it saved, indexed and recorded as an MCP write.
    const afterWrite = turns.find((x) => x.answered?.tool === wire.write)
    expect(afterWrite, `the model never got the write answer: ${steps.join(' → ')}\n${run.out}`).toBeDefined()
    const saved = readdirSync(memoryDir).filter(
      (f) => f.endsWith('.md') && f !== 'MEMORY.md' && f !== 'testing.md',
    )
    expect(saved, afterWrite!.answered!.answer).toHaveLength(1)
    const file = saved[0]!
    expect(afterWrite!.answered!.answer).toContain(file)
    expect(readFileSync(join(memoryDir, file), 'utf8')).toContain('Run the e2e suite; bump the version.')
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain(`(${file})`)
    const history = await new HistoryStore(historyDirFor(ctx, memoryDir)).list({ path: file })
    expect(history.map((e) => e.author)).toEqual(['mcp'])
    expect(steps).toEqual(['prompt', wire.search, wire.write])
  }, 300_000)

  it('the snippet in one project’s file serves that project only: a session in another project gets no memdir tools', async (t) => {
    if (!agent) return t.skip(`no ${name} CLI: ${skipped}`)
    const wire = WIRES[name]
    const { sb, memoryDir } = agentWorld()
    const other = join(sb.root, 'other-project')
    const offered: string[][] = []
    const fake = await wire.start((req) => {
      if (!JSON.stringify(req.body).includes('[mcp]')) return { text: 'ok' }
      offered.push(wire.tools(req))
      if (wire.tools(req).includes(wire.write) && !wire.answered(req))
        return { call: { name: wire.write, args: NEW_MEMORY } }
      return { text: 'Done.' }
    })
    fakes.push(fake)
    const run = await runAgent(agent, wire, sb, fake, sb.project, other)
    expect(run.code, run.out).toBe(0)
    expect(offered.length, run.out).toBeGreaterThan(0)
    expect(offered.flat()).not.toContain(wire.write)
    expect(existsSync(memoryDir) ? readdirSync(memoryDir) : []).toEqual([])
  }, 300_000)

  it('pages through memory_list over 300 memories, each page reaching the model whole', async (t) => {
    if (!agent) return t.skip(`no ${name} CLI: ${skipped}`)
    const wire = WIRES[name]
    const list = wire.search.replace('memory_search', 'memory_list')
    const { sb, memoryDir } = agentWorld()
    const description = 'a one-line description of what this memory holds, as long as they get, '.repeat(2)
    for (let i = 0; i < 300; i++)
      writeFile(
        join(memoryDir, `note_${i}.md`),
        `---\nname: Note ${i}\ndescription: ${description}${i}\ntype: project\n---\n\nbody ${i}\n`,
      )
    const answers = await pagedAnswers(agent, wire, sb, list, {})
    // Every memory once.
    const listed = answers.flatMap((a) => [...a.matchAll(/note_\d+\.md/g)].map((m) => m[0]))
    expect(listed).toHaveLength(300)
    expect(new Set(listed).size).toBe(300)
  }, 300_000)

  it('reads a long memory page by page, each page reaching the model whole', async (t) => {
    if (!agent) return t.skip(`no ${name} CLI: ${skipped}`)
    const wire = WIRES[name]
    const read = wire.search.replace('memory_search', 'memory_read')
    const { sb, memoryDir } = agentWorld()
    // ~38,000 characters: read whole, Codex showed its model the start and the end, not the middle.
    const lines = Array.from({ length: 600 }, (_, i) => `line ${i} of the release runbook, with its detail.`)
    writeFile(
      join(memoryDir, 'runbook.md'),
      `---\nname: Runbook\ndescription: the release runbook\ntype: reference\n---\n\n${lines.join('\n')}\n`,
    )
    const answers = await pagedAnswers(agent, wire, sb, read, { path: 'runbook.md' })
    const seen = answers.flatMap((a) =>
      [...a.matchAll(/line (\d+) of the release runbook/g)].map((m) => m[1]),
    )
    expect(seen).toEqual(lines.map((_, i) => String(i)))
  }, 300_000)
})
