import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, it } from 'vitest'
import { failWith, reply, text, toolUse } from '../../test/fake-anthropic/server.js'
import { fakeModel } from '../../test/helpers/model.js'
import { sandbox, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'
import { getProjectTranscriptDir } from '../core/paths/team-agent-paths.js'
import { cliSession, until } from '../../test/helpers/cli.js'

beforeEach(() => clearAutoMemPathCache())

const fixture = fileURLToPath(new URL('../../test/fixtures/transcripts/session-v2.jsonl', import.meta.url))

function seed(sb: ReturnType<typeof sandbox>) {
  const dir = getAutoMemPath(sb.ctx())
  writeFile(
    join(dir, 'postgres.md'),
    '---\nname: Real DB\ndescription: Integration tests hit the real Postgres\ntype: feedback\n---\nNo mocks.\n',
  )
  writeFile(
    join(dir, 'deploy.md'),
    '---\nname: Deploy\ndescription: Staging deploys with make ship\ntype: project\n---\nmake ship\n',
  )
  return dir
}

describe('memdir recall', () => {
  it('labels the offline ranker when no model is configured', async () => {
    const sb = sandbox()
    const dir = seed(sb)
    const { io, run } = cliSession(sb.env, sb.project)
    expect(await run(['recall', 'integration tests postgres'])).toBe(0)
    expect(io.stdout).toMatch(/^\[offline ranking \(no model configured\)/)
    expect(io.stdout).toContain('\n1 of 2 memories selected\n')
    expect(io.stdout).toContain(`Memory (saved today): ${join(dir, 'postgres.md')}:`)
  })

  it('says how it ranked, and that nothing was there, in a memory dir with no memories yet', async () => {
    const sb = sandbox()
    const { io, run } = cliSession(sb.env, sb.project)
    expect(await run(['recall', 'integration tests postgres'])).toBe(0)
    expect(io.stdout).toBe(
      '[offline ranking (no model configured): lexical match on name, description and body]\n0 of 0 memories selected\n',
    )
  })

  it('uses the model when configured and passes recent tools', async () => {
    const { fake } = await fakeModel([reply(text('{"selected_memories":["deploy.md"]}'))])
    const sb = sandbox({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url })
    const dir = seed(sb)
    const { io, run } = cliSession(sb.env, sb.project)
    expect(await run(['recall', 'how do I ship', '--recent-tools', 'Bash,Read', '--json'])).toBe(0)
    const out = JSON.parse(io.stdout)
    expect(out).toMatchObject({ mode: 'model', memories: [{ path: join(dir, 'deploy.md') }] })
    expect(out.injections[0]).toContain('make ship')
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Recently used tools: Bash, Read')
  })

  it('uses the API key and endpoint saved in Settings (the CLI and the app share one configuration)', async () => {
    const { fake } = await fakeModel([reply(text('{"selected_memories":["deploy.md"]}'))])
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    writeFile(
      join(sb.root, 'data', 'settings.json'),
      JSON.stringify({ apiKey: 'sk-saved', baseURL: fake.url }),
    )
    seed(sb)
    const { io, run } = cliSession(sb.env, sb.project)
    expect(await run(['recall', 'how do I ship', '--json'])).toBe(0)
    expect(JSON.parse(io.stdout)).toMatchObject({ mode: 'model' })
    const h = fake.requests[0]!.headers
    expect(`${h['x-api-key'] ?? ''} ${h.authorization ?? ''}`).toContain('sk-saved')
  })

  it('needs a query', async () => {
    const sb = sandbox()
    expect(await cliSession(sb.env, sb.project).run(['recall'])).toBe(2)
  })
})

describe('memdir extract', () => {
  it('runs one extraction over a real transcript and prints what it wrote', async () => {
    const sb = sandbox()
    const dir = getAutoMemPath(sb.ctx())
    const { fake } = await fakeModel([
      reply(
        toolUse('Write', {
          file_path: join(dir, 'staging_dashboard.md'),
          content:
            '---\nname: Staging dashboard\ndescription: Checkout latency lives on grafana.internal/d/checkout\ntype: reference\n---\n\ngrafana.internal/d/checkout\n',
        }),
        toolUse('Write', {
          file_path: join(dir, 'MEMORY.md'),
          content: '- [Staging dashboard](staging_dashboard.md) — checkout latency\n',
        }),
      ),
      reply(text('Saved.')),
    ])
    const env = { ...sb.env, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url }
    const { io, run } = cliSession(env, sb.project)
    expect(await run(['extract', '--transcript', fixture])).toBe(0)
    expect(io.stdout).toContain('extracting from the last 8 messages')
    expect(io.stdout).toContain('Saved 1 memory: staging_dashboard.md, MEMORY.md')
    expect(io.stderr).toContain('skipped malformed transcript lines 8')
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toContain('staging_dashboard.md')
    const sent = JSON.stringify(fake.requests[0]!.body.messages)
    expect(sent).toContain('grafana.internal/d/checkout')
    expect(sent).not.toContain('abandoned answer')
  })

  it('exits 1 when the model call fails', async () => {
    const { fake } = await fakeModel([failWith(400, {}, 'bad request')])
    const sb = sandbox({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: '' })
    const { io, run } = cliSession({ ...sb.env, ANTHROPIC_BASE_URL: fake.url }, sb.project)
    expect(await run(['extract', '--transcript', fixture, '--json'])).toBe(1)
    expect(JSON.parse(io.stdout).events.at(-1)).toMatchObject({ type: 'failed' })
  })

  it('says it needs a model without credentials', async () => {
    const sb = sandbox()
    const { io, run } = cliSession(sb.env, sb.project)
    expect(await run(['extract', '--transcript', fixture])).toBe(0)
    expect(io.stdout).toContain('skipped: needs a model')
  })
})

describe('memdir watch', () => {
  it('extracts when a Claude Code session ends a turn, and stops on abort', async () => {
    const sb = sandbox()
    const dir = getAutoMemPath(sb.ctx())
    const { fake } = await fakeModel([
      reply(
        toolUse('Write', {
          file_path: join(dir, 'note.md'),
          content: '---\nname: n\ndescription: d\ntype: user\n---\nx\n',
        }),
      ),
      reply(text('done')),
    ])
    const env = {
      ...sb.env,
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      MEMDIR_WATCH_DEBOUNCE_MS: '100',
    }
    const transcripts = getProjectTranscriptDir(sb.ctx())
    mkdirSync(transcripts, { recursive: true })
    const session = join(transcripts, '7d9b2c1e-4f3a-4b8e-9c21-5a6d7e8f9a01.jsonl')
    const lines = readFileSync(fixture, 'utf8').trim().split('\n')
    writeFile(session, lines.slice(0, -2).join('\n') + '\n') // the session so far, mid-conversation
    copyFileSync(fixture, join(transcripts, 'agent-a1b2c3.jsonl')) // subagent files never trigger
    const controller = new AbortController()
    const { io, run } = cliSession(env, sb.project, controller.signal)
    const done = run(['watch'])
    await until(() => io.stdout.includes('watching'))
    appendFileSync(session, lines.slice(-2).join('\n') + '\n') // the user's question and the final answer
    await until(() => io.stdout.includes('Saved 1 memory'))
    controller.abort()
    expect(await done).toBe(0)
    expect(io.stdout.match(/turn ended/g)).toHaveLength(1)
    expect(existsSync(join(dir, 'note.md'))).toBe(true)
  })
})
