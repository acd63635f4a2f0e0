import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SCENARIO_TEXT, scenarioResponder } from '../test/fake-anthropic/claude-code-scenario.js'
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
import { sandbox, type Sandbox, writeFile } from '../test/helpers/temp-env.js'
import { until } from '../test/helpers/until.js'
import { passDialogs, sleep, Tmux, waitFor } from '../test/helpers/tmux.js'
import { normalizeMessages } from '../test/fixtures/transcripts/normalize.js'
import { SELECTOR_SYSTEM_PROMPT } from '../src-main/core/recall/selector-prompt.js'
import { hookLogPath } from '../src-main/agents/hooks/hook-log.js'
import { HistoryStore } from '../src-main/core/history/history-store.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { getProjectTranscriptDir } from '../src-main/core/paths/team-agent-paths.js'
import { activityFileFor, readActivity } from '../src-main/host/activity/activity-store.js'
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
 * The real Claude Code clients (the last Node build and the newest native one) with Memdir's hooks
 * installed, against the fake Messages API: the recalled memory reaches the model as the client
 * frames it, the Stop hook extracts the whole session in the format that client writes, and
 * where the client does the memory work itself Memdir does not do it again.
 */
type Message = { role: string; content: unknown }
const messagesOf = (r: RecordedRequest) => r.body.messages as Message[]
const textOf = (r: RecordedRequest) =>
  JSON.stringify(r.body.messages ?? []) + JSON.stringify(r.body.system ?? '')
/** Memdir's own requests, told apart by Memdir's own prompts. */
const isMemdirExtraction = (r: RecordedRequest) =>
  textOf(r).includes('You are now the memory extraction agent')
const isMemdirSelector = (r: RecordedRequest) =>
  JSON.stringify(r.body.system ?? '').includes(SELECTOR_SYSTEM_PROMPT.slice(0, 60))
const lastUserText = (r: RecordedRequest) => JSON.stringify(messagesOf(r).findLast((m) => m.role === 'user'))

const TESTING =
  '---\nname: Integration tests\ndescription: integration tests run against a real postgres database, never mocks\ntype: feedback\n---\n\nRun them with `npm test` and TEST_DATABASE_URL set; never mock the database.\n'

const fakes: FakeAnthropic[] = []
afterEach(async () => {
  while (fakes.length) await fakes.pop()!.close()
})

/**
 * Until every detached `memdir hook extract` the hooks started has exited: Stop and SessionEnd each
 * start one, and a run still writing when the test's temp dir is removed fails it. Its log lines
 * come before its last writes, so the test waits for the processes themselves (their command line
 * names the transcript, which lives under the sandbox).
 */
async function detachedRunsDone(dataDir: string): Promise<void> {
  const sandboxRoot = dirname(dataDir)
  await until(
    'every detached extraction run',
    () => {
      const log = existsSync(hookLogPath(dataDir)) ? readFileSync(hookLogPath(dataDir), 'utf8') : ''
      const started = log.match(/handed to background/g)?.length ?? 0
      return (log.match(/ extract: /g)?.length ?? 0) >= started && !extractionsRunningUnder(sandboxRoot)
    },
    90_000,
  )
}

/** Whether a `memdir hook extract` process works on a transcript under `root` (Linux: /proc). */
function extractionsRunningUnder(root: string): boolean {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let args: string[]
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    } catch {
      continue // gone meanwhile
    }
    const at = args.indexOf('hook')
    if (at >= 0 && args[at + 1] === 'extract' && args.some((a) => a.startsWith(root))) return true
  }
  return false
}

/** A project with one memory, Claude Code's files under ~/.claude, Memdir's data in the sandbox. */
function world(switches: Record<string, boolean> = {}) {
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  // Claude Code keeps its files under ~/.claude (no CLAUDE_CONFIG_DIR): Memdir resolves the same.
  delete sb.env.CLAUDE_CONFIG_DIR
  clearAutoMemPathCache()
  const ctx = sb.ctx({ env: sb.env })
  const memoryDir = getAutoMemPath(ctx)
  writeFile(join(memoryDir, 'testing.md'), TESTING)
  writeFile(join(memoryDir, 'MEMORY.md'), '- [Integration tests](testing.md) — real postgres, never mocks\n')
  writeFile(join(sb.project, 'a.txt'), 'alpha: deploys go out on Tuesdays\n')
  writeFile(join(sb.project, 'b.txt'), 'beta: the staging database is reset nightly\n')
  writeClientConfig(sb.home, sb.project, switches)
  return { sb, ctx, memoryDir }
}

/** Memdir's extraction model: writes the memory in the format Memdir's prompt asked for. */
function memdirExtraction(memoryDir: string) {
  return (req: RecordedRequest): FakeStep => {
    if (lastUserText(req).includes('tool_result')) return reply(text('Saved one memory.'))
    const nested = /\nmetadata:\n\s+type: /.test(textOf(req).replaceAll('\\n', '\n'))
    const content = nested
      ? '---\nname: ci-database\ndescription: CI runs the integration tests against postgres 15\nmetadata:\n  type: project\n---\n\nCI uses postgres 15.\n'
      : '---\nname: CI database\ndescription: CI runs the integration tests against postgres 15\ntype: project\n---\n\nCI uses postgres 15.\n'
    return reply(toolUse('Write', { file_path: join(memoryDir, 'ci_database.md'), content }))
  }
}

async function installHooks(env: Record<string, string>, project: string) {
  const installed = await runBuilt(['hooks', 'install', '--scope', 'project', '--cwd', project], { env })
  expect(installed.code, installed.stderr).toBe(0)
}

/**
 * A fake Messages API for the client's scripted scenario, with Memdir's selector picking `selected`
 * and its extraction writing into `memoryDir`; Memdir's hooks installed for the project.
 */
async function scenarioWithMemdir(sb: Sandbox, memoryDir: string, selected: string[]) {
  const scenario = scenarioResponder({ projectDir: sb.project })
  const fake = await startFakeAnthropic([], {
    fallback: {
      kind: 'dynamic',
      respond: (req) => {
        if (isMemdirSelector(req)) return reply(text(JSON.stringify({ selected_memories: selected })))
        if (isMemdirExtraction(req)) return memdirExtraction(memoryDir)(req)
        return scenario.kind === 'dynamic' ? scenario.respond(req) : scenario
      },
    },
  })
  fakes.push(fake)
  const env = clientEnv(sb.env, fake.url)
  await installHooks(env, sb.project)
  return { fake, env }
}

/** world() with Memdir's hooks installed, its selector picking testing.md, and extraction off. */
async function recallOnlyWorld() {
  const { sb, ctx } = world()
  sb.env.MEMDIR_EXTRACTION = '0'
  const fake = await startFakeAnthropic([], {
    fallback: {
      kind: 'dynamic',
      respond: (req) =>
        isMemdirSelector(req) ? reply(text('{"selected_memories":["testing.md"]}')) : reply(text('Noted.')),
    },
  })
  fakes.push(fake)
  const env = clientEnv(sb.env, fake.url)
  await installHooks(env, sb.project)
  return { sb, ctx, env, fake }
}

/**
 * Two prompts of one conversation with Memdir's hooks installed and its selector picking
 * testing.md: a first session, then `--resume <it>` with `more` flags (a fork, say), `between` them
 * whatever the test does. How many times the second prompt's request holds the memory.
 */
async function memoryCopiesAfterResume(
  client: NonNullable<ClientOrSkip['client']>,
  more: string[],
  between: (sb: Sandbox) => void = () => {},
): Promise<number> {
  const { sb, ctx, env, fake } = await recallOnlyWorld()
  const ask = (prompt: string, ...flags: string[]) =>
    runClient(client, ['-p', prompt, ...flags, '--dangerously-skip-permissions'], { cwd: sb.project, env })
  expect((await ask('How do we run the integration tests?')).code).toBe(0)
  const session = readdirSync(getProjectTranscriptDir(ctx))
    .find((f) => f.endsWith('.jsonl'))!
    .replace('.jsonl', '')
  between(sb)
  const before = fake.requests.length
  expect((await ask('Which database do those tests use?', '--resume', session, ...more)).code).toBe(0)
  const second = fake.requests
    .slice(before)
    .filter((r) => !isMemdirSelector(r) && textOf(r).includes('Which database'))
    .at(-1)!
  return textOf(second).split('never mock the database').length - 1
}

describe.each(CLIENT_VERSIONS)('Claude Code %s with Memdir hooks', (requested) => {
  let found: ClientOrSkip = {}
  beforeAll(() => {
    found = realClient(requested)
  }, 600_000)

  it('carries the recalled memory as plain context, and extracts the whole session in the format the client writes', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const client = found.client
    const { sb, ctx, memoryDir } = world()
    const { fake, env } = await scenarioWithMemdir(sb, memoryDir, ['testing.md'])

    const prompt =
      '[scenario:read] Look at the notes in a.txt and b.txt. How do we run the integration tests against postgres?'
    const run = await runClient(client, ['-p', prompt, '--dangerously-skip-permissions'], {
      cwd: sb.project,
      env,
    })
    expect(run.code, run.out).toBe(0)

    // Recall: Memdir's hook asked its selector, and the memory reached the model once, framed only by
    // the client (2.1.88 wraps hook context in its own tags, 2.1.33x escapes tags inside it).
    expect(fake.requests.some(isMemdirSelector)).toBe(true)
    const main = fake.requests.filter(
      (r) => !isMemdirSelector(r) && !isMemdirExtraction(r) && textOf(r).includes('[scenario:read]'),
    )
    const carried = main.find((r) =>
      textOf(r).includes(`Memory (saved today): ${join(memoryDir, 'testing.md')}:`),
    )
    expect(carried, 'a model request carrying the recalled memory').toBeDefined()
    const sent = textOf(carried!)
    expect(sent).toContain('never mock the database')
    expect(sent).not.toContain('&lt;system-reminder')
    expect(sent).not.toMatch(/<system-reminder>(\\n|\s)*<system-reminder>/)
    expect(sent).not.toMatch(/<system-reminder>(\\n|\s)*Memory \(saved/)

    // Extraction: the Stop hook's background run got every message of the session, then wrote.
    const feed = activityFileFor(ctx, memoryDir)
    await until(
      'the extraction in the activity feed',
      () => existsSync(feed) && readFileSync(feed, 'utf8').includes('"kind":"extraction"'),
      90_000,
    )
    const extraction = fake.requests.find(isMemdirExtraction)!
    const last = main.toSorted((a, b) => messagesOf(b).length - messagesOf(a).length)[0]!
    expect(normalizeMessages(messagesOf(extraction).slice(0, -1) as never)).toEqual([
      ...normalizeMessages(messagesOf(last) as never),
      { role: 'assistant', blocks: [{ text: SCENARIO_TEXT.done }] },
    ])
    await detachedRunsDone(sb.env.MEMDIR_DATA_DIR!)
    const entries = await new HistoryStore(historyDirFor(ctx, memoryDir)).list({ path: 'ci_database.md' })
    expect(entries.map((e) => e.author)).toEqual(['extraction'])

    // New memories as this client writes them: its format, and from 2.1.139 its stamps.
    const written = readFileSync(join(memoryDir, 'ci_database.md'), 'utf8')
    const session = readdirSync(getProjectTranscriptDir(ctx))
      .find((f) => f.endsWith('.jsonl'))!
      .replace('.jsonl', '')
    if (client.version === '2.1.88') {
      expect(written).toMatch(/^---\nname: CI database\ndescription: .*\ntype: project\n---\n/)
      expect(written).not.toMatch(/node_type|originSessionId|modified/)
    } else {
      expect(written).toMatch(
        /\nmetadata:\n {2}node_type: memory\n {2}type: project\n {2}originSessionId: (\S+)\n {2}modified: \S+Z\n---/,
      )
      expect(/originSessionId: (\S+)/.exec(written)![1]).toBe(session)
    }
    const items = await readActivity(feed)
    expect(items.map((i) => [i.kind, i.source])).toEqual(
      expect.arrayContaining([
        ['recall', 'hook'],
        ['extraction', 'hook'],
      ]),
    )
  }, 300_000)

  it('after the shell enters a nested repository, extracts into the memory of the project the session started in', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const { sb, ctx, memoryDir } = world()
    // The project and, inside it, a package that is a repository of its own (a submodule).
    mkdirSync(join(sb.project, 'sub'))
    execFileSync('git', ['init', '-q'], { cwd: sb.project })
    execFileSync('git', ['init', '-q'], { cwd: join(sb.project, 'sub') })
    clearAutoMemPathCache()
    expect(getAutoMemPath(ctx)).toBe(memoryDir)
    const { env } = await scenarioWithMemdir(sb, memoryDir, [])
    const run = await runClient(
      found.client,
      [
        '-p',
        '[scenario:cd] What is in the sub package? CI runs on postgres 15.',
        '--dangerously-skip-permissions',
      ],
      { cwd: sb.project, env },
    )
    expect(run.code, run.out).toBe(0)
    // The Stop hook came with the shell's folder, sub/; Memdir extracted for the project, into its
    // memory (a run for sub/'s memory dir could not have written there).
    await until('the extraction’s memory', () => existsSync(join(memoryDir, 'ci_database.md')), 90_000)
    await detachedRunsDone(sb.env.MEMDIR_DATA_DIR!)
    const subMemory = getAutoMemPath(sb.ctx({ env: sb.env, projectRoot: join(sb.project, 'sub') }))
    expect(subMemory).not.toBe(memoryDir)
    expect(existsSync(subMemory)).toBe(false)
  }, 300_000)

  it('leaves a turn to the client when it saves memories itself', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const client = found.client
    const { sb, memoryDir } = world({ tengu_passport_quail: true, tengu_slate_thimble: true })
    const byClient = join(memoryDir, 'deploy_day.md')
    const fake = await startFakeAnthropic([], {
      fallback: {
        kind: 'dynamic',
        respond: (req) => {
          if (isMemdirSelector(req)) return reply(text('{"selected_memories":[]}'))
          const said = lastUserText(req)
          if (isMemdirExtraction(req)) return reply(text('Nothing to save.'))
          if (said.includes('tool_result')) return reply(text('Saved.'))
          // The client's own extraction lists the existing memories in its last message.
          if (/testing\.md \(/.test(said) && !said.includes('[scenario'))
            return reply(
              toolUse('Write', {
                file_path: byClient,
                content:
                  '---\nname: deploy-day\ndescription: We deploy on Fridays\ntype: project\n---\n\nFridays.\n',
              }),
            )
          return reply(text('Noted: we deploy on Fridays.'))
        },
      },
    })
    fakes.push(fake)
    const env = clientEnv(sb.env, fake.url)
    await installHooks(env, sb.project)
    const run = await runClient(
      client,
      ['-p', '[scenario:again] Remember: we deploy on Fridays.', '--dangerously-skip-permissions'],
      {
        cwd: sb.project,
        env,
      },
    )
    expect(run.code, run.out).toBe(0)
    expect(existsSync(byClient), 'the client saved the memory itself').toBe(true)
    // Memdir's Stop hook ran and stood back: no extraction request of its own.
    await until(
      'the hook’s background run',
      () => {
        const log = hookLogPath(sb.env.MEMDIR_DATA_DIR!)
        return existsSync(log) && readFileSync(log, 'utf8').includes('saves memories itself')
      },
      60_000,
    )
    await detachedRunsDone(sb.env.MEMDIR_DATA_DIR!)
    expect(fake.requests.filter(isMemdirExtraction)).toHaveLength(0)
  }, 300_000)

  it('five long memories recalled at once all reach the model: the client passes 10,000 characters of hook context on whole', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const { sb, memoryDir } = world()
    // Recall only: no detached extraction left writing in the temp dir when the test removes it.
    sb.env.MEMDIR_EXTRACTION = '0'
    const files = [0, 1, 2, 3, 4].map((i) => {
      const body = Array.from(
        { length: 70 },
        (_, k) => `memory ${i} line ${k}: how the deploy pipeline works`,
      )
      writeFile(
        join(memoryDir, `deploy_${i}.md`),
        `---\nname: Deploy ${i}\ndescription: deploy pipeline fact ${i}\ntype: project\n---\n\n${body.join('\n')}\n`,
      )
      return `deploy_${i}.md`
    })
    const { fake, env } = await scenarioWithMemdir(sb, memoryDir, files)
    const prompt = '[scenario:again] How does the deploy pipeline work?'
    const run = await runClient(found.client, ['-p', prompt, '--dangerously-skip-permissions'], {
      cwd: sb.project,
      env,
    })
    expect(run.code, run.out).toBe(0)
    const sent = fake.requests
      .filter((r) => !isMemdirSelector(r) && !isMemdirExtraction(r) && textOf(r).includes('[scenario:again]'))
      .map(textOf)
      .join('\n')
    // 2.1.88 cut hook context off past 10,000 characters; 2.1.33x put it all in a file instead.
    expect(sent).not.toContain('output truncated')
    expect(sent).not.toContain('Output too large')
    for (const [i, f] of files.entries()) {
      expect(sent).toContain(`${join(memoryDir, f)}:`)
      expect(sent).toContain(`memory ${i} line 0: how the deploy pipeline works`)
      expect(sent).toContain(`(truncated — Read ${join(memoryDir, f)} for the rest)`)
    }
  }, 300_000)

  it('a forked session (`--resume … --fork-session`) extracts only its own turn, not the turns it copied', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const { sb, ctx } = world()
    const fake = await startFakeAnthropic([], {
      fallback: {
        kind: 'dynamic',
        respond: (req) =>
          isMemdirSelector(req)
            ? reply(text('{"selected_memories":[]}'))
            : isMemdirExtraction(req)
              ? reply(text('Nothing new worth saving.'))
              : reply(text('Noted.')),
      },
    })
    fakes.push(fake)
    const env = clientEnv(sb.env, fake.url)
    await installHooks(env, sb.project)
    const ask = (prompt: string, ...more: string[]) =>
      runClient(found.client!, ['-p', prompt, ...more, '--dangerously-skip-permissions'], {
        cwd: sb.project,
        env,
      })
    // What each extraction run was asked to look at: "the last ~N messages".
    const runs = () =>
      fake.requests
        .filter((r) => isMemdirExtraction(r) && lastUserText(r).includes('memory extraction agent'))
        .map((r) => Number(/the last ~(\d+) messages/.exec(lastUserText(r))?.[1]))
    expect((await ask('Deploys go out on Tuesdays.')).code).toBe(0)
    await until('the first extraction run', () => runs().length >= 1, 90_000)
    await detachedRunsDone(sb.env.MEMDIR_DATA_DIR!)
    const first = runs()
    const session = readdirSync(getProjectTranscriptDir(ctx))
      .find((f) => f.endsWith('.jsonl'))!
      .replace('.jsonl', '')

    expect(
      (await ask('The staging database resets nightly.', '--resume', session, '--fork-session')).code,
    ).toBe(0)
    await until("the forked session's extraction run", () => runs().length > first.length, 90_000)
    await detachedRunsDone(sb.env.MEMDIR_DATA_DIR!)
    const transcripts = readdirSync(getProjectTranscriptDir(ctx)).filter((f) => f.endsWith('.jsonl'))
    expect(transcripts).toHaveLength(2) // the client wrote the fork as a session of its own
    // The fork's run looked at its one new turn, as many messages as the first session's one turn.
    expect(runs().slice(first.length)).toEqual([first[0]])
  }, 300_000)

  it("with every hook turned off in Claude Code's own settings, `memdir hooks status` says so, as the client runs none", async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    const { sb, env, fake } = await recallOnlyWorld()
    const ask = () =>
      runClient(
        found.client!,
        ['-p', 'How do we run the integration tests?', '--dangerously-skip-permissions'],
        {
          cwd: sb.project,
          env,
        },
      )
    const status = async () => (await runBuilt(['hooks', 'status', '--cwd', sb.project], { env })).stdout
    const asked = () => fake.requests.filter(isMemdirSelector).length

    const userSettings = join(sb.home, '.claude', 'settings.json')
    writeFile(userSettings, '{ "disableAllHooks": true }\n')
    expect(await status()).toContain(`disableAllHooks is true in ${userSettings}`)
    expect((await ask()).code).toBe(0)
    expect(asked()).toBe(0) // the prompt hook never ran

    // The project's local file turns them on again for this project: the more specific file wins.
    writeFile(join(sb.project, '.claude', 'settings.local.json'), '{ "disableAllHooks": false }\n')
    expect(await status()).not.toContain('warning:')
    expect((await ask()).code).toBe(0)
    expect(asked()).toBeGreaterThan(0)
  }, 300_000)

  it('a forked session is not given the memory the session it copied holds already', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    // Once: the newer clients copy the hook context of the first session into the fork, and the hook
    // read it in that session's transcript; 2.1.88 keeps no hook context in a transcript, so its fork
    // holds none, and the hook gives the memory again.
    expect(await memoryCopiesAfterResume(found.client, ['--fork-session'])).toBe(1)
  }, 300_000)

  it('a session resumed in a new client process holds the memory once, whether or not the client kept the hook context', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${requested}: ${found.skipped}`)
    // Once: the newer clients rebuild the context with the hook's earlier context from the transcript;
    // 2.1.88 keeps no hook context there, so it is gone from the resumed context, and the hook, seeing
    // the client started anew, gives the memory again.
    expect(await memoryCopiesAfterResume(found.client, [])).toBe(1)
  }, 300_000)
})

/**
 * The client's own recall, at a terminal: only the newest clients record it in the transcript
 * (2.1.88 selects memories but keeps no trace a hook could read).
 */
const NEWEST = CLIENT_VERSIONS.at(-1)!
describe(`Claude Code ${NEWEST} recalling memories itself`, () => {
  let found: ClientOrSkip = {}
  beforeAll(() => {
    found = realClient(NEWEST)
  }, 600_000)

  it('leaves recall to a client that recalls memories itself: nothing injected twice (at a terminal)', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${NEWEST}: ${found.skipped}`)
    const client = found.client
    const { sb, ctx, memoryDir } = world({
      tengu_moth_copse: true,
      tengu_passport_quail: true,
      tengu_slate_thimble: true,
    })
    sb.env.MEMDIR_EXTRACTION = '0' // recall only (see above)
    const isClientSelector = (r: RecordedRequest) =>
      ((r.body.tools as unknown[] | undefined)?.length ?? 0) === 0 && /testing\.md \(/.test(textOf(r))
    let prompts = 0
    const fake = await startFakeAnthropic([], {
      fallback: {
        kind: 'dynamic',
        respond: (req) => {
          // Were Memdir to recall too, its selector would pick the memory the client picks.
          if (isMemdirSelector(req)) return reply(text(JSON.stringify({ selected_memories: ['testing.md'] })))
          if (isMemdirExtraction(req)) return reply(text('Nothing to save.'))
          if (isClientSelector(req)) return reply(text('{"selected_memories":["testing.md"]}'))
          // One tool call per turn: the client attaches what it recalled to the turn's next request.
          if (lastUserText(req).includes('tool_result')) return reply(text(SCENARIO_TEXT.again))
          return reply(toolUse('Read', { file_path: join(sb.project, 'a.txt') }))
        },
      },
    })
    fakes.push(fake)
    const env = clientEnv(sb.env, fake.url)
    await installHooks(env, sb.project)
    const transcript = () =>
      readdirSync(getProjectTranscriptDir(ctx))
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => readFileSync(join(getProjectTranscriptDir(ctx), f), 'utf8'))
        .join('')
    const answers = () => transcript().split(SCENARIO_TEXT.again).length - 1
    const tmux = new Tmux()
    try {
      tmux.start(sb.project, { ...env, TERM: 'xterm-256color' }, [
        client.cmd,
        ...client.args,
        '--dangerously-skip-permissions',
      ])
      await passDialogs(tmux)
      for (const prompt of [
        '[scenario:again] How do we run the integration tests against postgres?',
        '[scenario:again] Which database do those tests use?',
      ]) {
        prompts++
        tmux.type(prompt)
        await sleep(700)
        tmux.key('Enter')
        await waitFor(
          `answer ${prompts}`,
          () => answers() >= prompts,
          90_000,
          () => tmux.pane(),
        )
      }
    } finally {
      await tmux.stop()
    }
    // The client surfaced the memory itself on the first prompt...
    expect(transcript().includes('"relevant_memories"'), 'the client recorded its own recall').toBe(true)
    expect(fake.requests.some(isClientSelector)).toBe(true)
    // ...and Memdir's hook stood back at both prompts: it runs before the client's own recall of
    // the same prompt, so anything it added would have been that memory a second time.
    expect(fake.requests.filter(isMemdirSelector)).toHaveLength(0)
    expect(readFileSync(hookLogPath(sb.env.MEMDIR_DATA_DIR!), 'utf8')).toContain(
      'Claude Code recalls memories itself',
    )
    const sentMemory = fake.requests
      .filter((r) => !isClientSelector(r) && textOf(r).includes('[scenario:again]'))
      .at(-1)!
    expect(textOf(sentMemory).split('TEST_DATABASE_URL').length - 1).toBeLessThanOrEqual(1)
    const feed = activityFileFor(ctx, memoryDir)
    const recalls = existsSync(feed) ? (await readActivity(feed)).filter((i) => i.kind === 'recall') : []
    expect(recalls).toEqual([])
  }, 300_000)

  it('a session resumed after Memdir forgot it (its recall state pruned after a week) is not given the memory it holds twice', async (t) => {
    if (!found.client) return t.skip(`no Claude Code ${NEWEST}: ${found.skipped}`)
    // What a week without the session does to Memdir's note of what it recalled there.
    const forget = (sb: Sandbox) =>
      rmSync(join(sb.env.MEMDIR_DATA_DIR!, 'hooks', 'recall'), { recursive: true, force: true })
    // Once: the client keeps the hook's context in the transcript, and the hook read it there.
    expect(await memoryCopiesAfterResume(found.client, [], forget)).toBe(1)
  }, 300_000)
})
