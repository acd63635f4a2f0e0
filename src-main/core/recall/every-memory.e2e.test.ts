import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { reply, startFakeAnthropic, text, type FakeAnthropic } from '../../../test/fake-anthropic/server.js'
import { BIN, runBuilt } from '../../../test/helpers/built-cli.js'
import type { Sandbox } from '../../../test/helpers/temp-env.js'
import { oldMemoryWorld, OLD_MEMORY, OLD_MEMORY_QUERY } from '../../../test/helpers/recall.js'

/**
 * 301 memories where only the oldest one is about Kafka consumer lag: offline recall ranks every
 * memory, so the CLI, MCP and the prompt hook all find it; the model selector's manifest keeps
 * Claude Code's newest 200.
 */
const QUERY = OLD_MEMORY_QUERY
const OLD = OLD_MEMORY

let sb: Sandbox
let memoryDir: string

// Each test gets its own sandbox (sandboxes are removed after each test).
beforeEach(() => {
  ;({ sb, memoryDir } = oldMemoryWorld(300))
})

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
    const input = JSON.stringify({
      session_id: 'every-memory',
      transcript_path: join(sb.root, 'none.jsonl'),
      cwd: sb.project,
      hook_event_name: 'UserPromptSubmit',
      prompt: `the ${QUERY} fired again, what do we do?`,
    })
    const r = await runBuilt(['hook', 'prompt'], { env: sb.env, input })
    expect(r.code).toBe(0)
    const context = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext
    expect(context).toContain(join(memoryDir, OLD))
    expect(context).toContain('scale the consumers before raising the threshold')
  })
})

describe('the model selector over 301 memories', () => {
  let fake: FakeAnthropic
  beforeAll(async () => {
    fake = await startFakeAnthropic([], {
      fallback: { kind: 'dynamic', respond: () => reply(text('{"selected_memories":[]}')) },
    })
  })
  afterAll(() => fake.close())

  it('is shown the newest 200, as Claude Code shows its own selector', async () => {
    const env = { ...sb.env, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url }
    const r = await runBuilt(['recall', QUERY, '--json', '--cwd', sb.project], { env })
    expect(r.code, r.stderr).toBe(0)
    expect((JSON.parse(r.stdout) as { candidates: number }).candidates).toBe(200)
    const manifest = JSON.stringify(fake.requests.at(-1)!.body.messages)
    expect(manifest).toContain('auth_299.md') // the newest
    expect(manifest).toContain('mobile_100.md') // the 200th newest
    expect(manifest).not.toContain('auth_99.md') // the 201st
    expect(manifest).not.toContain(OLD)
  })
})
