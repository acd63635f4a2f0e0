import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { failWith, reply, text, toolUse } from '../../../test/fake-anthropic/server.js'
import { fakeModel } from '../../../test/helpers/model.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { initExtractMemories } from '../extract/extract-memories.js'
import { runAgentLoop } from './agent-loop.js'
import { buildCacheSafeParams, createCacheSafeParams } from './cache-safe.js'
import { createAutoMemCanUseTool } from './permissions.js'
import { editTool } from './tools/edit.js'
import { MEMORY_AGENT_TOOLS, toAnthropicTool } from './tools/index.js'
import { ToolInputError } from './tools/types.js'
import { writeTool } from './tools/write.js'
import { createOverlayTools } from '../review/overlay-tools.js'

const allow = async () => ({ behavior: 'allow' as const })

/** The memory agent's tools, every call allowed, in `dir`, from the instruction `prompt`. */
function runTools(
  client: Parameters<typeof runAgentLoop>[0]['client'],
  dir: string,
  prompt: string,
  maxTurns: number,
) {
  const base = buildCacheSafeParams({
    model: 'm',
    system: 'sys',
    tools: MEMORY_AGENT_TOOLS.map(toAnthropicTool),
  })
  return runAgentLoop({
    client,
    base,
    messages: [{ role: 'user', content: prompt }],
    tools: MEMORY_AGENT_TOOLS,
    canUseTool: allow,
    maxTurns,
    cwd: dir,
  })
}

describe('agent tool loop', () => {
  it('runs real tools and feeds results back until the model stops', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'notes.md'), 'alpha\nbeta\n')
    const { fake, client } = await fakeModel([
      reply(
        toolUse('Read', { file_path: join(dir, 'notes.md') }),
        toolUse('Grep', { pattern: 'bet', path: dir, output_mode: 'content' }),
      ),
      reply(toolUse('Glob', { pattern: '*.md', path: dir }), toolUse('Bash', { command: 'wc -l notes.md' })),
      reply(text('done')),
    ])
    const r = await runTools(client, dir, 'go', 5)
    expect(r).toMatchObject({ turns: 3, stopReason: 'end_turn', finalText: 'done' })
    const turn2 = JSON.stringify(fake.requests[1]!.body.messages)
    expect(turn2).toContain('1\\talpha')
    expect(turn2).toContain('notes.md:2:beta')
    const turn3 = JSON.stringify(fake.requests[2]!.body.messages)
    expect(turn3).toContain(join(dir, 'notes.md'))
    expect(turn3).toContain('2 notes.md')
  })

  it('reads on past the model’s context: its oldest tool results are cleared, the newest kept', async () => {
    // Each file is ~6,000 tokens; the window holds two of them, not three.
    const dir = tempDir()
    for (const n of ['a', 'b', 'c']) writeFile(join(dir, `${n}.md`), `${n} line of notes\n`.repeat(1_500))
    const { fake, client } = await fakeModel([], 0, { contextWindow: 15_000 })
    fake.enqueue(
      reply(toolUse('Read', { file_path: join(dir, 'a.md') })),
      reply(toolUse('Read', { file_path: join(dir, 'b.md') })),
      reply(toolUse('Read', { file_path: join(dir, 'c.md') })),
      reply(text('done')),
    )
    const r = await runTools(client, dir, 'read them all', 10)
    expect(r).toMatchObject({ turns: 4, stopReason: 'end_turn', finalText: 'done' })
    const last = JSON.stringify(fake.requests.at(-1)!.body.messages)
    expect(last.length / 4).toBeLessThan(15_000)
    expect(last).toContain('cleared to fit the model')
    expect(last).toContain('c line of notes')
    expect(last).not.toContain('a line of notes')
  })

  it('stops at the turn limit', async () => {
    const dir = tempDir()
    const loop = Array.from({ length: 3 }, () => reply(toolUse('Glob', { pattern: '*' })))
    const { fake, client } = await fakeModel(loop)
    const r = await runTools(client, dir, 'x', 2)
    expect(r).toMatchObject({ turns: 2, stopReason: 'max_turns' })
    expect(fake.requests).toHaveLength(2)
  })

  it('retries 429 and 529 honouring retry-after (real SDK retry policy)', async () => {
    const { fake, client } = await fakeModel(
      [
        failWith(429, { 'retry-after-ms': '20' }),
        failWith(529, { 'retry-after-ms': '20' }),
        reply(text('ok')),
      ],
      2,
    )
    const base = buildCacheSafeParams({ model: 'm', system: 's', tools: [] })
    const r = await runAgentLoop({
      client,
      base,
      messages: [{ role: 'user', content: 'x' }],
      tools: [],
      canUseTool: allow,
      maxTurns: 1,
      cwd: '/',
    })
    expect(r.finalText).toBe('ok')
    expect(fake.requests).toHaveLength(3)
  })

  it('puts cache breakpoints on system, tools and the latest message', async () => {
    const { fake, client } = await fakeModel([reply(text('ok'))])
    await runTools(client, tempDir(), 'x', 1)
    const body = fake.requests[0]!.body as {
      system: { cache_control?: unknown }[]
      tools: { cache_control?: unknown }[]
      messages: { content: { cache_control?: unknown }[] }[]
    }
    expect(body.system.at(-1)!.cache_control).toEqual({ type: 'ephemeral' })
    expect(body.tools.at(-1)!.cache_control).toEqual({ type: 'ephemeral' })
    expect(body.tools.slice(0, -1).every((t) => t.cache_control === undefined)).toBe(true)
    expect(body.messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' })
  })
})

describe('cache-safe forking', () => {
  it("the extraction fork's request prefix equals the parent's byte for byte", async () => {
    const root = tempDir()
    const memoryDir = join(root, 'memory') + '/'
    mkdirSync(memoryDir)
    writeFile(join(root, 'app.ts'), 'export const x = 1\n')
    const { fake, client } = await fakeModel([
      reply(toolUse('Read', { file_path: join(root, 'app.ts') })),
      reply(text('x is 1.')),
      reply(text('Nothing worth saving.')),
    ])
    const parentBase = buildCacheSafeParams({
      model: 'fake-agent',
      system: 'You are the main agent.\n\n# auto memory\n…',
      tools: MEMORY_AGENT_TOOLS.map(toAnthropicTool),
    })
    const parent = await runAgentLoop({
      client,
      base: parentBase,
      messages: [{ role: 'user', content: 'What is x?' }],
      tools: MEMORY_AGENT_TOOLS,
      canUseTool: allow,
      maxTurns: 5,
      cwd: root,
    })
    const extractor = initExtractMemories({
      memoryDir,
      client,
      gates: () => [],
      systemPrompt: async () => 'unused: the fork reuses the parent params',
    })
    await extractor.executeExtractMemories({
      messages: [
        { uuid: 'u1', role: 'user', content: [{ type: 'text', text: 'What is x?' }] },
        { uuid: 'a1', role: 'assistant', content: [{ type: 'text', text: 'x is 1.' }] },
      ],
      cacheSafeParams: createCacheSafeParams(parent.lastRequest, parent.lastReply),
    })
    expect(fake.requests).toHaveLength(3)
    const parentRaw = fake.requests[1]!.rawBody
    const forkRaw = fake.requests[2]!.rawBody
    const between = (raw: string, from: string, to: string) => raw.slice(raw.indexOf(from), raw.indexOf(to))
    // system and tools: the same bytes
    expect(between(forkRaw, '"system":', '"messages":')).toBe(between(parentRaw, '"system":', '"messages":'))
    // messages: the parent's whole array is a literal prefix of the fork's
    const parentMessages = parentRaw.slice(parentRaw.indexOf('"messages":'), -2) // drop "]}"
    expect(forkRaw.slice(forkRaw.indexOf('"messages":')).startsWith(parentMessages + ',')).toBe(true)
    const forkBody = fake.requests[2]!.body as { messages: unknown[] }
    expect(JSON.stringify(forkBody.messages.at(-1))).toContain('memory extraction agent')
    expect(fake.requests[2]!.body.model).toBe(fake.requests[1]!.body.model)
  })
})

describe('createAutoMemCanUseTool', () => {
  it('allows reads anywhere and writes only inside the memory dir', async () => {
    const dir = tempDir()
    const can = createAutoMemCanUseTool(dir + '/')
    expect(await can('Read', { file_path: '/etc/hosts' })).toEqual({ behavior: 'allow' })
    expect(await can('Glob', { pattern: '**' })).toEqual({ behavior: 'allow' })
    expect(await can('Write', { file_path: join(dir, 'sub', 'new.md') })).toEqual({ behavior: 'allow' })
    expect((await can('Write', { file_path: dir })).behavior).toBe('deny')
    expect((await can('Write', { file_path: join(dir, '..', 'x.md') })).behavior).toBe('deny')
    expect((await can('Write', { file_path: dir + '-sibling/x.md' })).behavior).toBe('deny')
    expect((await can('Write', {})).behavior).toBe('deny')
    expect((await can('NotebookEdit', { file_path: join(dir, 'x') })).behavior).toBe('deny')
    expect(await can('Bash', { command: 'ls -la' })).toEqual({ behavior: 'allow' })
  })

  it('refuses a new team file that could not sync beside one already there', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'team', 'Ops', 'deploy.md'), 'x')
    const can = createAutoMemCanUseTool(dir)
    expect(await can('Write', { file_path: join(dir, 'team', 'ops', 'rollback.md'), content: 'x' })).toEqual({
      behavior: 'deny',
      message: expect.stringContaining('ops and Ops would be one folder on macOS and Windows'),
    })
    expect(await can('Write', { file_path: join(dir, 'team', 'Ops', 'rollback.md'), content: 'x' })).toEqual({
      behavior: 'allow',
    })
  })

  it('refuses a new file with a name no client can hold', async () => {
    const dir = tempDir()
    const can = createAutoMemCanUseTool(dir + '/')
    // memory.md would replace the index on macOS and Windows, where the two names are one file.
    for (const name of ['evil\u202egpj.md', 'a\nb.md', 'notes.txt', 'x'.repeat(300) + '.md', 'memory.md'])
      expect((await can('Write', { file_path: join(dir, name), content: 'x' })).behavior, name).toBe('deny')
    for (const name of ['fine.md', 'MEMORY.md'])
      expect(await can('Write', { file_path: join(dir, name), content: 'x' }), name).toEqual({
        behavior: 'allow',
      })
  })

  it('an agent never saves a detected secret, in team or private memory, and hears what to write instead', async () => {
    const dir = tempDir()
    const key = 'sk-ant-api03-' + 'k9Q'.repeat(25)
    const ctx = { cwd: dir }
    for (const file of [join(dir, 'team', 'deploy.md'), join(dir, 'private.md')]) {
      const err = await writeTool
        .run({ file_path: file, content: `use ${key}` }, ctx)
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ToolInputError)
      expect((err as Error).message).toContain('Anthropic API key')
      expect((err as Error).message).toContain('write where it lives instead')
      expect((err as Error).message).not.toContain(key)
      expect(existsSync(file)).toBe(false)
    }
    // Split over two edits, the whole file is what counts.
    writeFileSync(join(dir, 'notes.md'), 'token: ABC\n')
    await editTool.run(
      { file_path: join(dir, 'notes.md'), old_string: 'ABC', new_string: key.slice(0, 20) },
      ctx,
    )
    const second = editTool.run(
      { file_path: join(dir, 'notes.md'), old_string: key.slice(0, 20), new_string: key },
      ctx,
    )
    await expect(second).rejects.toBeInstanceOf(ToolInputError)
    // A secret the user already keeps in a private memory stays: an agent may edit around it.
    writeFileSync(join(dir, 'mine.md'), `my key ${key}\nold line\n`)
    await editTool.run(
      { file_path: join(dir, 'mine.md'), old_string: 'old line', new_string: 'new line' },
      ctx,
    )
    expect(readFileSync(join(dir, 'mine.md'), 'utf8')).toContain('new line')
  })

  it('an agent’s Edit or Write over a file someone saved since the tool read it changes nothing, and the agent is told to read it again', async () => {
    const dir = tempDir()
    const file = join(dir, 'notes.md')
    writeFileSync(file, 'deploys on Fridays\n')
    // The user saves in the app between the tool's read and its write.
    const ctx = {
      cwd: dir,
      stamp: (_p: string, _b: string | null, after: string) => (
        writeFileSync(file, 'saved by the user\n'),
        after
      ),
    }
    const edit = await editTool
      .run({ file_path: file, old_string: 'Fridays', new_string: 'Mondays' }, ctx)
      .catch((e: unknown) => e)
    expect(edit).toBeInstanceOf(ToolInputError)
    expect((edit as Error).message).toContain('Read it again')
    expect(readFileSync(file, 'utf8')).toBe('saved by the user\n')
    writeFileSync(file, 'deploys on Fridays\n')
    const write = await writeTool
      .run({ file_path: file, content: 'deploys on Mondays\n' }, ctx)
      .catch((e: unknown) => e)
    expect(write).toBeInstanceOf(ToolInputError)
    expect(readFileSync(file, 'utf8')).toBe('saved by the user\n')
  })

  it('an agent never adds a link out of the memory dir to an index, in any review mode; a link the user had stays', async () => {
    const dir = tempDir()
    const ctx = { cwd: dir }
    const index = join(dir, 'MEMORY.md')
    const teamIndex = join(dir, 'team', 'MEMORY.md')
    writeFile(
      index,
      '- [Testing](testing.md) — real DB\n- [My dotfiles](/home/me/dotfiles.md) — the user wrote this\n',
    )
    writeFile(teamIndex, '- [Deploy](deploy.md) — staging first\n')
    const before = [readFileSync(index, 'utf8'), readFileSync(teamIndex, 'utf8')]
    const overlay = createOverlayTools(dir, MEMORY_AGENT_TOOLS)
    const tools = (name: string) => [
      MEMORY_AGENT_TOOLS.find((t) => t.name === name)!,
      overlay.tools.find((t) => t.name === name)!,
    ]
    for (const [file, link] of [
      [index, '../../../../.ssh/config.md'],
      [index, '%2e%2e/%2e%2e/x.md'],
      [teamIndex, '../../elsewhere.md'],
      [teamIndex, 'file:///etc/passwd'],
    ] as const) {
      for (const write of tools('Write')) {
        const err = await write
          .run(
            { file_path: file, content: `${readFileSync(file, 'utf8')}- [Setup](${link}) — read first\n` },
            ctx,
          )
          .catch((e: unknown) => e)
        expect(err, `${write.name} ${link}`).toBeInstanceOf(ToolInputError)
        expect((err as Error).message).toContain(`links to ${JSON.stringify(link)}, outside`)
      }
      for (const edit of tools('Edit')) {
        const err = await edit
          .run(
            {
              file_path: file,
              old_string: file === index ? 'real DB' : 'staging first',
              new_string: `see [this](${link})`,
            },
            ctx,
          )
          .catch((e: unknown) => e)
        expect(err, `${edit.name} ${link}`).toBeInstanceOf(ToolInputError)
        expect((err as Error).message).toContain(`links to ${JSON.stringify(link)}, outside`)
      }
    }
    expect([readFileSync(index, 'utf8'), readFileSync(teamIndex, 'utf8')]).toEqual(before)
    expect(await overlay.changes()).toEqual([])
    // Editing around the user's own link, and adding pointers inside the dir, go through.
    await editTool.run(
      { file_path: index, old_string: 'real DB', new_string: 'real DB, never mocks [see](team/deploy.md)' },
      ctx,
    )
    expect(readFileSync(index, 'utf8')).toContain('/home/me/dotfiles.md')
    expect(readFileSync(index, 'utf8')).toContain('never mocks')
  })
})
