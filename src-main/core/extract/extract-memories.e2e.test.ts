import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { delayed, failWith, reply, text, toolUse } from '../../../test/fake-anthropic/server.js'
import { fakeModel } from '../../../test/helpers/model.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import type { TranscriptMessage } from '../sessions/transcript.js'
import { type ExtractionEvent, initExtractMemories, type ExtractDeps } from './extract-memories.js'

let n = 0
const user = (t: string): TranscriptMessage => ({
  uuid: `m${++n}`,
  role: 'user',
  content: [{ type: 'text', text: t }],
})
const assistant = (t: string, extra: TranscriptMessage['content'] = []): TranscriptMessage => ({
  uuid: `m${++n}`,
  role: 'assistant',
  content: [{ type: 'text', text: t }, ...extra],
})

function setup(client: ExtractDeps['client'], over: Partial<ExtractDeps> = {}) {
  const root = tempDir()
  const memoryDir = join(root, 'memory') + '/'
  mkdirSync(memoryDir)
  const events: ExtractionEvent[] = []
  const extractor = initExtractMemories({
    memoryDir,
    client,
    gates: () => [{ ok: true }],
    systemPrompt: async () => 'You are the main agent. (memory prompt here)',
    onEvent: (e) => events.push(e),
    ...over,
  })
  return { root, memoryDir, events, extractor }
}

const requestText = (body: Record<string, unknown>) => JSON.stringify(body.messages)

describe('extraction permissions, end to end', () => {
  it('denies every escape attempt, changes nothing outside, and lands the allowed write with its pointer', async () => {
    const { fake, client } = await fakeModel()
    const { root, memoryDir, events, extractor } = setup(client)
    const outside = join(root, 'outside')
    writeFile(join(outside, 'precious.txt'), 'keep me')
    symlinkSync(outside, join(memoryDir, 'escape'))
    const home = join(root, 'home')
    const snapshot = () => readdirSync(root, { recursive: true }).map(String).sort()
    const before = snapshot()

    fake.enqueue(
      reply(
        text('Saving.'),
        toolUse('Write', { file_path: `${memoryDir}../../outside.md`, content: 'x' }),
        toolUse('Write', { file_path: '~/.ssh/x', content: 'x' }),
        toolUse('Write', { file_path: join(memoryDir, 'escape', 'evil.md'), content: 'x' }),
        toolUse('Edit', { file_path: join(outside, 'precious.txt'), old_string: 'keep', new_string: 'lost' }),
        toolUse('Bash', { command: 'echo x > f' }),
        toolUse('Bash', { command: `rm -rf ${outside}` }),
        toolUse('Bash', { command: 'cat a | tee b' }),
        toolUse('Bash', { command: '$(touch z)' }),
        toolUse('mcp__github__create_issue', { title: 'x' }),
        toolUse('Agent', { prompt: 'x' }),
      ),
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'testing_policy.md'),
          content:
            '---\nname: Testing policy\ndescription: Integration tests hit the real Postgres\ntype: feedback\n---\n\nNever mock the DB.\n',
        }),
        toolUse('Write', {
          file_path: join(memoryDir, 'MEMORY.md'),
          content: '- [Testing policy](testing_policy.md) — integration tests hit the real Postgres\n',
        }),
      ),
      reply(text('Done.')),
    )
    await extractor.executeExtractMemories({
      messages: [user('never mock the DB in integration tests'), assistant('ok')],
    })

    const second = fake.requests[1]!.body.messages as { content: unknown }[]
    const results = JSON.stringify(second[second.length - 1])
    expect(results.match(/Permission denied/g)).toHaveLength(10)
    expect(results).toContain('only allowed inside the memory directory')
    expect(results).toContain('absolute file_path')
    expect(results).toContain('through a symlink')
    expect(results).toContain('redirections are not allowed')
    expect(results).toContain('`rm` is not one of the read-only commands')
    expect(results).toContain('`tee` is not one of the read-only commands')
    expect(results).toContain('expansions (`$`) are not allowed')
    expect(results).toContain('MCP tools are not available')

    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('keep me')
    expect(existsSync(join(home, '.ssh'))).toBe(false)
    for (const f of ['f', 'b', 'z']) expect(existsSync(join(memoryDir, f))).toBe(false)
    expect(snapshot()).toEqual([...before, 'memory/MEMORY.md', 'memory/testing_policy.md'].sort())
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('](testing_policy.md)')
    expect(events.at(-1)).toMatchObject({
      type: 'wrote',
      paths: ['testing_policy.md', 'MEMORY.md'],
      memories: 1,
      summary: 'Saved 1 memory',
    })
  })

  it("edits a memory saved on Windows (CRLF) with the model's LF text, and it stays CRLF", async () => {
    const { fake, client } = await fakeModel()
    const { memoryDir, extractor } = setup(client)
    const crlf = (s: string) => s.replace(/\n/g, '\r\n')
    const file = join(memoryDir, 'deploys.md')
    writeFile(
      file,
      crlf(
        '---\nname: Deploys\ndescription: how we ship\ntype: project\n---\n\nShip on Tuesdays.\nNever on Fridays.\n',
      ),
    )
    fake.enqueue(
      reply(toolUse('Read', { file_path: file })),
      // What a model writes after reading it: lines joined by LF, no carriage returns.
      reply(
        toolUse('Edit', {
          file_path: file,
          old_string: 'Ship on Tuesdays.\nNever on Fridays.',
          new_string: 'Ship on Tuesdays and Wednesdays.\nNever on Fridays.',
        }),
      ),
      reply(text('Done.')),
    )
    await extractor.executeExtractMemories({
      messages: [user('we ship on Wednesdays too now'), assistant('ok')],
    })
    const shown = JSON.stringify(fake.requests[1]!.body.messages)
    expect(shown).toContain('Ship on Tuesdays.')
    expect(shown).not.toContain('\\r') // the Read the model got has no carriage returns
    expect(JSON.stringify(fake.requests[2]!.body.messages)).not.toContain('not found')
    expect(readFileSync(file, 'utf8')).toBe(
      crlf(
        '---\nname: Deploys\ndescription: how we ship\ntype: project\n---\n\nShip on Tuesdays and Wednesdays.\nNever on Fridays.\n',
      ),
    )

    // Rewritten whole by Write, in LF, it keeps CRLF too.
    const { fake: fake2, client: client2 } = await fakeModel()
    const again = setup(client2)
    const other = join(again.memoryDir, 'style.md')
    writeFile(other, crlf('---\nname: Style\ndescription: code style\ntype: feedback\n---\n\nTabs.\n'))
    fake2.enqueue(
      reply(
        toolUse('Write', {
          file_path: other,
          content: '---\nname: Style\ndescription: code style\ntype: feedback\n---\n\nSpaces, two.\n',
        }),
      ),
      reply(text('Done.')),
    )
    await again.extractor.executeExtractMemories({
      messages: [user('we use two spaces now'), assistant('ok')],
    })
    expect(readFileSync(other, 'utf8')).toBe(
      crlf('---\nname: Style\ndescription: code style\ntype: feedback\n---\n\nSpaces, two.\n'),
    )
  })
})

describe('extraction service', () => {
  it('skips and advances the cursor when the main agent already wrote memory', async () => {
    const { fake, client } = await fakeModel()
    const { memoryDir, events, extractor } = setup(client)
    const wrote = assistant('saved it', [
      {
        type: 'tool_use',
        id: 't1',
        name: 'Write',
        input: { file_path: join(memoryDir, 'x.md'), content: 'x' },
      },
    ])
    const msgs = [user('remember x'), wrote, user('thanks'), assistant('welcome')]
    await extractor.executeExtractMemories({ messages: msgs })
    expect(events).toEqual([{ type: 'skipped', reason: 'the main agent already wrote memory this turn' }])
    expect(fake.requests).toHaveLength(0)
    expect(extractor.state.cursor).toBe(msgs.at(-1)!.uuid)
  })

  it('skips subagent turns and closed gates without calling the model', async () => {
    const { fake, client } = await fakeModel()
    const { events, extractor } = setup(client, {
      gates: () => [{ ok: true }, { ok: false, reason: 'auto memory is off' }],
    })
    await extractor.executeExtractMemories({ messages: [user('a'), assistant('b')], agentId: 'sub-1' })
    await extractor.executeExtractMemories({ messages: [user('a'), assistant('b')] })
    expect(events.map((e) => e.type === 'skipped' && e.reason)).toEqual([
      'subagent turn',
      'auto memory is off',
    ])
    expect(fake.requests).toHaveLength(0)
  })

  it('keeps the cursor after a 500 and retries the same messages next time', async () => {
    const { fake, client } = await fakeModel([failWith(500), reply(text('nothing to save'))])
    const { events, extractor } = setup(client)
    const msgs = [user('we deploy with make ship'), assistant('noted')]
    await extractor.executeExtractMemories({ messages: msgs })
    expect(events.at(-1)).toMatchObject({ type: 'failed' })
    expect(extractor.state.cursor).toBeUndefined()
    await extractor.executeExtractMemories({ messages: msgs })
    expect(fake.requests).toHaveLength(2)
    expect(requestText(fake.requests[1]!.body)).toContain('we deploy with make ship')
    expect(requestText(fake.requests[1]!.body)).toContain('last ~2 messages')
    expect(extractor.state.cursor).toBe(msgs.at(-1)!.uuid)
  })

  it('after a rewind to an earlier turn, extracts only the new branch, not the turns before it again', async () => {
    const { fake, client } = await fakeModel([
      reply(text('nothing to save')),
      reply(text('nothing to save')),
      reply(text('nothing to save')),
    ])
    const { events, extractor } = setup(client)
    const session = 'rewound'
    const first = [user('we deploy with make ship'), assistant('noted')]
    await extractor.executeExtractMemories({ sessionId: session, messages: first })
    const second = [...first, user('the staging db resets nightly'), assistant('noted')]
    await extractor.executeExtractMemories({ sessionId: session, messages: second })
    // The user rewinds to after the first turn and goes on: Claude Code's live conversation drops
    // the second turn, where this session's cursor was.
    const branch = [...first, user('actually, staging resets weekly'), assistant('noted')]
    await extractor.executeExtractMemories({ sessionId: session, messages: branch })
    const started = events.filter((e) => e.type === 'started')
    expect(started.map((e) => e.type === 'started' && e.newMessageCount)).toEqual([2, 2, 2])
    expect(requestText(fake.requests[2]!.body)).toContain('last ~2 messages')
    expect(extractor.state.cursor).toBe(branch.at(-1)!.uuid)
  })

  it('extracts from a session longer than the model’s context: its oldest messages are left out, the turn is kept', async () => {
    // ~60,000 tokens of earlier work (with tool calls) against a 20,000-token window.
    const { fake, client } = await fakeModel([], 0, { contextWindow: 20_000 })
    const { memoryDir, events, extractor } = setup(client)
    const earlier: TranscriptMessage[] = []
    for (let i = 0; i < 30; i++) {
      earlier.push(
        user(`step ${i}: ${'read the logs and fix it. '.repeat(150)}`),
        assistant(`looking at step ${i}`, [
          { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/src/f${i}.ts` } },
        ]),
        {
          uuid: `m${++n}`,
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'x'.repeat(4_000) }],
        },
        assistant(`done with step ${i}`),
      )
    }
    const msgs = [...earlier, user('from now on, release notes go in docs/RELEASES.md'), assistant('noted')]
    fake.enqueue(
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'release_notes.md'),
          content:
            '---\nname: Release notes\ndescription: release notes go in docs/RELEASES.md\ntype: feedback\n---\n\nWrite release notes in docs/RELEASES.md.\n',
        }),
      ),
      reply(text('Saved.')),
    )
    await extractor.executeExtractMemories({ messages: msgs })
    expect(events.at(-1)).toMatchObject({
      type: 'wrote',
      memories: 1,
      summary: 'Saved 1 memory (from the newest part of a session too long for the model)',
    })
    expect(existsSync(join(memoryDir, 'release_notes.md'))).toBe(true)
    expect(extractor.state.cursor).toBe(msgs.at(-1)!.uuid)
    // The first request was refused; the one answered fits, opens with the note, and holds the turn.
    const answered = fake.requests.filter((r) => r.rawBody.length / 4 <= 20_000)
    expect(answered.length).toBeGreaterThanOrEqual(2)
    const sent = answered[0]!.body.messages as { role: string; content: { type: string; text?: string }[] }[]
    expect(sent[0]!.role).toBe('user')
    expect(sent[0]!.content[0]!.text).toMatch(/earlier part of this conversation was left out/)
    expect(sent[0]!.content.some((b) => b.type === 'tool_result')).toBe(false)
    expect(JSON.stringify(sent)).toContain('release notes go in docs/RELEASES.md')
    expect(JSON.stringify(sent)).not.toContain('step 0:')
  })

  it('coalesces two calls during a run into exactly one trailing run over only the new messages', async () => {
    const { fake, client } = await fakeModel([delayed(300, reply(text('nothing'))), reply(text('nothing'))])
    const { events, extractor } = setup(client)
    const m = [
      user('one'),
      assistant('two'),
      user('three'),
      assistant('four'),
      user('five'),
      assistant('six'),
    ]
    const first = extractor.executeExtractMemories({ messages: m.slice(0, 2) })
    await extractor.executeExtractMemories({ messages: m.slice(0, 4) })
    await extractor.executeExtractMemories({ messages: m })
    expect(extractor.state.hasPending).toBe(true)
    await first
    expect(fake.requests).toHaveLength(2)
    const starts = events.filter((e) => e.type === 'started')
    expect(starts).toMatchObject([
      { trailing: false, newMessageCount: 2 },
      { trailing: true, newMessageCount: 4 },
    ])
    expect(requestText(fake.requests[1]!.body)).toContain('last ~4 messages')
    expect(extractor.state.cursor).toBe(m.at(-1)!.uuid)
  })

  it('throttles to every N turns; trailing runs bypass the throttle', async () => {
    const { fake, client } = await fakeModel([reply(text('nothing'))])
    const { events, extractor } = setup(client, { throttleEvery: 2 })
    await extractor.executeExtractMemories({ messages: [user('a'), assistant('b')] })
    expect(events).toEqual([{ type: 'skipped', reason: 'throttled' }])
    await extractor.executeExtractMemories({
      messages: [user('a'), assistant('b'), user('c'), assistant('d')],
    })
    expect(fake.requests).toHaveLength(1)
  })

  it('drain waits for the in-flight run and its trailing run; a short timeout reports false', async () => {
    const { fake, client } = await fakeModel([delayed(250, reply(text('x'))), delayed(250, reply(text('y')))])
    const { extractor } = setup(client)
    void extractor.executeExtractMemories({ messages: [user('a'), assistant('b')] })
    void extractor.executeExtractMemories({
      messages: [user('a'), assistant('b'), user('c'), assistant('d')],
    })
    expect(await extractor.drainPendingExtraction(50)).toBe(false)
    expect(await extractor.drainPendingExtraction(5000)).toBe(true)
    expect(extractor.state.inProgress).toBe(false)
    expect(fake.requests).toHaveLength(2)
  })

  it('says it needs a model when none is configured', async () => {
    const { events, extractor } = setup(undefined)
    await extractor.executeExtractMemories({ messages: [user('a'), assistant('b')] })
    expect(events[0]).toMatchObject({ type: 'skipped', reason: expect.stringContaining('needs a model') })
  })
})

describe('beside the client the user runs', () => {
  it('writes a new memory as that client would, stamped with the session it came from', async () => {
    const { fake, client } = await fakeModel()
    const { memoryDir, extractor } = setup(client, {
      memoryStyle: async () => ({
        format: 'nested',
        stamps: ['node_type', 'originSessionId', 'modified'],
        client: { version: '2.1.336', source: 'transcript' },
      }),
    })
    fake.enqueue(
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'deploy_day.md'),
          content:
            '---\nname: deploy-day\ndescription: We deploy on Fridays\nmetadata:\n  type: project\n---\n\nFridays.\n',
        }),
      ),
      reply(text('Saved.')),
    )
    await extractor.executeExtractMemories({
      messages: [user('we deploy on fridays'), assistant('noted')],
      sessionId: 'cd62782f-a0ea-4e0b-abdf-71d48fe8cf71',
    })
    // The model was asked for the nested format, and the file carries the client's stamps.
    expect(requestText(fake.requests[0]!.body) + JSON.stringify(fake.requests[0]!.body.system)).toContain(
      'metadata:',
    )
    const written = readFileSync(join(memoryDir, 'deploy_day.md'), 'utf8')
    expect(written).toMatch(
      /^---\nname: deploy-day\ndescription: We deploy on Fridays\nmetadata:\n {2}node_type: memory\n {2}type: project\n {2}originSessionId: cd62782f-a0ea-4e0b-abdf-71d48fe8cf71\n {2}modified: \d{4}-\d\d-\d\dT[\d:.]+Z\n---\n/,
    )
  })

  it('leaves a turn the client extracts itself: no model call, the cursor moves on', async () => {
    const { fake, client } = await fakeModel()
    for (const over of [
      { ctx: { clientSaved: ['/m/probe_new.md'] }, deps: {} },
      { ctx: {}, deps: { clientExtracts: async () => true } },
    ]) {
      const { events, extractor } = setup(client, over.deps)
      const messages = [user('we deploy on fridays'), assistant('noted')]
      await extractor.executeExtractMemories({ messages, sessionId: 's', ...over.ctx })
      expect(events).toEqual([
        { type: 'skipped', reason: 'Claude Code saves memories itself in this session' },
      ])
      expect(extractor.state.cursor).toBe(messages[1]!.uuid)
    }
    expect(fake.requests).toHaveLength(0)
  })
})
