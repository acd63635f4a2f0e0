import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scenarioResponder } from '../test/fake-anthropic/claude-code-scenario.js'
import {
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
  type FakeStep,
  type RecordedRequest,
} from '../test/fake-anthropic/server.js'
import { runBuilt } from '../test/helpers/built-cli.js'
import { install } from '../test/helpers/claude-code.js'
import { sandbox, writeFile } from '../test/helpers/temp-env.js'
import { SELECTOR_SYSTEM_PROMPT } from '../src-main/core/recall/selector-prompt.js'
import { HistoryStore } from '../src-main/core/history/history-store.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { activityFileFor, readActivity } from '../src-main/host/activity/activity-store.js'
import { historyDirFor } from '../src-main/host/settings/app-data.js'
import { until } from '../test/helpers/until.js'

/**
 * The real Claude Code client with Memdir's hooks installed, against the fake Messages API: the
 * recalled memory must reach the model, and the Stop hook must lead to an extraction run.
 * The client comes from the npm registry (cached; never a dependency); without registry access
 * the test is skipped with a message.
 */
const VERSION = process.env.MEMDIR_CLAUDE_CODE_VERSION ?? '2.1.88'
let client: ReturnType<typeof install> | undefined
let unavailable = ''
beforeAll(() => {
  try {
    client = install(VERSION)
  } catch (e) {
    unavailable = (e as Error).message.split('\n')[0] ?? 'install failed'
    console.warn(
      `e2e/claude-code-hooks: skipped — cannot install @anthropic-ai/claude-code@${VERSION}: ${unavailable}`,
    )
  }
}, 240_000)

const fakes: FakeAnthropic[] = []
afterAll(async () => {
  while (fakes.length) await fakes.pop()!.close()
})

const textOf = (req: RecordedRequest) => JSON.stringify(req.body.messages ?? [])
const isExtraction = (req: RecordedRequest) => textOf(req).includes('You are now the memory extraction agent')
const isSelector = (req: RecordedRequest) =>
  JSON.stringify(req.body.system ?? '').includes(SELECTOR_SYSTEM_PROMPT.slice(0, 60))

describe('Claude Code with Memdir hooks', () => {
  it('carries the recalled memory to the model and extracts when the turn ends', async (t) => {
    if (!client) return t.skip(`no Claude Code client: ${unavailable}`)
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    // Claude Code keeps its files under ~/.claude (no CLAUDE_CONFIG_DIR): Memdir resolves the same.
    delete sb.env.CLAUDE_CONFIG_DIR
    clearAutoMemPathCache()
    const memoryDir = getAutoMemPath(sb.ctx({ env: sb.env }))
    writeFile(
      join(memoryDir, 'testing.md'),
      '---\nname: Integration tests\ndescription: integration tests run against a real postgres database, never mocks\ntype: feedback\n---\n\nRun them with `npm test` and TEST_DATABASE_URL set; never mock the database.\n',
    )
    writeFile(
      join(memoryDir, 'MEMORY.md'),
      '- [Integration tests](testing.md) — real postgres, never mocks\n',
    )

    const scenario = scenarioResponder({ projectDir: sb.project })
    const extractionStep = (req: RecordedRequest): FakeStep => {
      const last = JSON.stringify((req.body.messages as unknown[]).at(-1))
      if (last.includes('tool_result')) return reply(text('Saved one memory.'))
      return reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'ci_database.md'),
          content:
            '---\nname: CI database\ndescription: CI runs the integration tests against postgres 15\ntype: project\n---\n\nCI uses postgres 15 for the integration tests.\n',
        }),
      )
    }
    const fake = await startFakeAnthropic([], {
      fallback: {
        kind: 'dynamic',
        respond: (req) => {
          if (isSelector(req)) return reply(text('{"selected_memories":["testing.md"]}'))
          if (isExtraction(req)) return extractionStep(req)
          return scenario.kind === 'dynamic' ? scenario.respond(req) : scenario
        },
      },
    })
    fakes.push(fake)
    const env = {
      ...sb.env,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      IS_SANDBOX: '1',
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: 'sk-ant-api03-memdir-e2e-key-000000000000',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
    }
    const installed = await runBuilt(['hooks', 'install', '--scope', 'project', '--cwd', sb.project], { env })
    expect(installed.code, installed.stderr).toBe(0)

    const prompt = '[scenario:again] How do we run the integration tests against postgres?'
    const child = spawn(client.cmd, [...client.args, '-p', prompt, '--dangerously-skip-permissions'], {
      cwd: sb.project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code, out).toBe(0)

    // Recall: Memdir's hook asked the selector, and the memory it picked reached the model.
    expect(fake.requests.some(isSelector)).toBe(true)
    const main = fake.requests.filter(
      (r) => !isSelector(r) && !isExtraction(r) && textOf(r).includes('[scenario:again]'),
    )
    expect(main.length).toBeGreaterThan(0)
    const carried = main.find((r) =>
      textOf(r).includes(`Memory (saved today): ${join(memoryDir, 'testing.md')}:`),
    )
    expect(carried, 'a model request carrying the recalled memory').toBeDefined()
    expect(textOf(carried!)).toContain('never mock the database')

    // Extraction: the Stop hook's background run wrote the memory, recorded and reported it
    // (the feed entry comes last, after the write and its history record).
    const feedFile = activityFileFor(sb.ctx({ env: sb.env }), memoryDir)
    await until(
      'the extraction in the activity feed',
      () => existsSync(feedFile) && readFileSync(feedFile, 'utf8').includes('"kind":"extraction"'),
      60_000,
    )
    const saved = join(memoryDir, 'ci_database.md')
    expect(readFileSync(saved, 'utf8')).toContain('postgres 15')
    const entries = await new HistoryStore(historyDirFor(sb.ctx({ env: sb.env }), memoryDir)).list({
      path: 'ci_database.md',
    })
    expect(entries.map((e) => e.author)).toEqual(['extraction'])
    const items = await readActivity(feedFile)
    expect(items.map((i) => [i.kind, i.source])).toEqual(
      expect.arrayContaining([
        ['recall', 'hook'],
        ['extraction', 'hook'],
      ]),
    )
  }, 240_000)
})
