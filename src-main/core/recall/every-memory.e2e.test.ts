import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { reply, startFakeAnthropic, text, type FakeAnthropic } from '../../../test/fake-anthropic/server.js'
import { BIN, runBuilt } from '../../../test/helpers/built-cli.js'
import type { Sandbox } from '../../../test/helpers/temp-env.js'
import { oldMemoryWorld, OLD_MEMORY, OLD_MEMORY_QUERY } from '../../../test/helpers/recall.js'

/**
 * 301 memories where only the oldest one is about Kafka consumer lag: recall ranks every memory,
 * so the CLI, MCP and the prompt hook all find it; with a model, the selector is shown Claude
 * Code's newest 200 and, after them, the older memories that fit the prompt.
 */
const QUERY = OLD_MEMORY_QUERY
const OLD = OLD_MEMORY

let sb: Sandbox
let memoryDir: string

// Each test gets its own sandbox (sandboxes are removed after each test).
beforeEach(() => {
  ;({ sb, memoryDir } = oldMemoryWorld(300))
})

/** What `memdir hook prompt` adds to a prompt about the old memory, as Claude Code would send it. */
async function promptHookContext(
  sessionId: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const input = JSON.stringify({
    session_id: sessionId,
    transcript_path: join(sb.root, 'none.jsonl'),
    cwd: sb.project,
    hook_event_name: 'UserPromptSubmit',
    prompt: `the ${QUERY} fired again, what do we do?`,
  })
  const r = await runBuilt(['hook', 'prompt'], { env, input })
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext
}

describe('offline recall over 301 memories, the only match the oldest', () => {
  it('`memdir recall` finds it, cold and again through its caches', async () => {
    for (const run of ['cold', 'warm']) {
      const r = await runBuilt(['recall', QUERY, '--json', '--cwd', sb.project], { env: sb.env })
      expect(r.code, r.stderr).toBe(0)
      const out = JSON.parse(r.stdout) as {
        mode: string
        candidates: number
        selected: { relPath: string }[]
      }
      expect(out.mode, run).toBe('offline')
      expect(out.candidates, run).toBe(301)
      expect(
        out.selected.map((s) => s.relPath),
        run,
      ).toEqual([OLD])
    }
  })

  it('MCP memory_search finds it (the SDK client over stdio)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--cwd', sb.project],
      env: { PATH: process.env.PATH ?? '', ...sb.env } as Record<string, string>,
      stderr: 'pipe',
    })
    const client = new Client({ name: 'memdir-test-client', version: '1.0.0' })
    await client.connect(transport)
    try {
      const r = (await client.callTool({ name: 'memory_search', arguments: { query: QUERY } })) as {
        content: { text: string }[]
      }
      const said = r.content.map((c) => c.text).join('\n')
      expect(said).toMatch(/^1 relevant among 301 memories/)
      expect(said).toContain(join(memoryDir, OLD))
    } finally {
      await client.close()
    }
  })

  it('the prompt hook injects it', async () => {
    const context = await promptHookContext('every-memory', sb.env)
    expect(context).toContain(join(memoryDir, OLD))
    expect(context).toContain('scale the consumers before raising the threshold')
  })
})

describe('the model selector over 301 memories', () => {
  let fake: FakeAnthropic
  /** A selector that picks every manifest entry named for Kafka: what a model would pick. */
  const manifestOf = (i: number) => JSON.stringify(fake.requests[i]!.body.messages)
  beforeAll(async () => {
    fake = await startFakeAnthropic([], {
      fallback: {
        kind: 'dynamic',
        respond: (req) => {
          const user = JSON.stringify(req.body.messages)
          const picked = [...user.matchAll(/\] (\S*kafka\S*\.md) \(/g)].map((m) => m[1])
          return reply(text(JSON.stringify({ selected_memories: picked })))
        },
      },
    })
  })
  afterAll(() => fake.close())
  const withKey = () => ({ ...sb.env, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url })

  it('is shown the newest 200, as Claude Code shows its own selector, and after them the old memory that fits', async () => {
    const r = await runBuilt(['recall', QUERY, '--json', '--cwd', sb.project], { env: withKey() })
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as { mode: string; candidates: number; selected: { relPath: string }[] }
    expect(out.candidates).toBe(201)
    const manifest = manifestOf(fake.requests.length - 1)
    expect(manifest).toContain('auth_299.md') // the newest
    expect(manifest).toContain('mobile_100.md') // the 200th newest
    expect(manifest).not.toContain('auth_99.md') // the 201st, which does not fit
    // The old memory comes last: the manifest stays newest first.
    expect(manifest.indexOf(OLD)).toBeGreaterThan(manifest.indexOf('mobile_100.md'))
    expect(out.mode).toBe('model')
    expect(out.selected.map((s) => s.relPath)).toEqual([OLD])
  })

  it('is shown exactly the newest 200 when no older memory fits the prompt', async () => {
    const r = await runBuilt(['recall', 'rotate the zebra certificates', '--json', '--cwd', sb.project], {
      env: withKey(),
    })
    expect(r.code, r.stderr).toBe(0)
    expect((JSON.parse(r.stdout) as { candidates: number }).candidates).toBe(200)
    expect(manifestOf(fake.requests.length - 1)).not.toContain(OLD)
  })

  it('the prompt hook of a client with a key injects the old memory the selector picked', async () => {
    const before = fake.requests.length
    const context = await promptHookContext('every-memory-model', withKey())
    expect(fake.requests.length).toBe(before + 1) // the selector was asked
    expect(context).toContain(join(memoryDir, OLD))
  })
})
