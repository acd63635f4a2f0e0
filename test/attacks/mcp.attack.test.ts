import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clearAutoMemPathCache, getAutoMemPath } from '../../src-main/core/paths/auto-mem-path.js'
import { assertCliBuilt, BIN } from '../helpers/built-cli.js'
import { changesOutside, snapshotTree } from '../helpers/home-snapshot.js'
import { sandbox, writeFile } from '../helpers/temp-env.js'

/**
 * MCP as an attacker or a careless agent uses it, through the real SDK client against the built
 * `memdir mcp`: every name goes through the one name rule, content has a documented limit answered
 * with a JSON-RPC error (the server stays up), an update keeps the MEMORY.md line someone else
 * wrote and every frontmatter key Memdir does not know — and nothing outside the memory and data
 * dirs is written.
 */

const clients: Client[] = []
afterEach(async () => {
  while (clients.length) await clients.pop()!.close()
})
beforeEach(() => clearAutoMemPathCache())

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean }

function world() {
  const sb = sandbox({ MEMDIR_TEAM_MEMORY: '1' })
  sb.env.MEMDIR_DATA_DIR = join(sb.home, '.memdir')
  const memoryDir = getAutoMemPath(sb.ctx())
  return { sb, memoryDir }
}

async function connect(env: Record<string, string | undefined>, cwd: string) {
  assertCliBuilt()
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--cwd', cwd],
    env: { PATH: process.env.PATH ?? '', ...env } as Record<string, string>,
    stderr: 'pipe',
  })
  const client = new Client({ name: 'attacker', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as ToolResult
    return { ...r, text: r.content.map((c) => c.text).join('\n') }
  }
  return { client, call }
}

const write = (over: Record<string, unknown>) => ({
  name: 'Deploy notes',
  description: 'how deploys work',
  type: 'project',
  body: 'Use the pipeline.',
  ...over,
})

describe('memdir mcp under attack', () => {
  it('refuses names with a newline, bidi characters, absolute paths or traversal, in both scopes', async () => {
    const { sb, memoryDir } = world()
    writeFile(join(memoryDir, 'MEMORY.md'), '- [Existing](existing.md) — kept\n')
    const before = snapshotTree(sb.home)
    const { call } = await connect(sb.env, sb.project)
    const attempts: Record<string, unknown>[] = [
      { path: 'evil\n- [owned](../../.ssh/id_rsa).md' },
      { path: 'gpj\u202e.md' },
      { path: '/etc/cron.d/evil.md', scope: 'team' },
      { path: '/tmp/evil.md' },
      { path: '../outside.md' },
      { path: 'team/../../x.md', scope: 'team' },
      { name: 'Fine\n- [owned](/etc/passwd) — x' },
      { name: 'spoof\u202egpj' },
      { path: 'x'.repeat(300) + '.md' },
    ]
    for (const a of attempts) {
      const r = await call('memory_write', write(a))
      expect(r.isError, JSON.stringify(a)).toBe(true)
      expect(r.text).toMatch(/^(INVALID_NAME|PATH_TOO_LONG|INVALID_PATH): /)
    }
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe('- [Existing](existing.md) — kept\n')
    const memoryRel = memoryDir.slice(sb.home.length + 1).replace(/\/$/, '')
    expect(changesOutside(before, snapshotTree(sb.home), [memoryRel, '.memdir'])).toEqual([])
    expect(
      [...snapshotTree(sb.home).keys()].filter(
        (p) => p.startsWith(`${memoryRel}/`) && p !== `${memoryRel}/MEMORY.md`,
      ),
    ).toEqual([])
  })

  it('answers content over 1 MiB with a JSON-RPC error naming the limit, 20 MB included, and stays up', async () => {
    const { sb, memoryDir } = world()
    const { client, call } = await connect(sb.env, sb.project)
    for (const size of [1.5 * 1024 * 1024, 20 * 1024 * 1024]) {
      const started = Date.now()
      const err = await client
        .callTool({ name: 'memory_write', arguments: write({ body: 'x'.repeat(size) }) }, undefined, {
          timeout: 20_000,
        })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(McpError)
      expect((err as McpError).message).toContain('1.0 MiB')
      expect(Date.now() - started).toBeLessThan(10_000)
      const alive = await call('memory_list', {})
      expect(alive.isError).toBeFalsy()
    }
    const fine = await call('memory_write', write({ body: 'y'.repeat(1000) }))
    expect(fine.isError).toBeFalsy()
    expect(readFileSync(join(memoryDir, 'deploy_notes.md'), 'utf8')).toContain('yyyy')
  }, 60_000)

  it('an update keeps the MEMORY.md line someone else wrote and every frontmatter key it does not know', async () => {
    const { sb, memoryDir } = world()
    const claudeLine =
      '- [Staging needs VPN](staging-vpn.md) — connect the VPN first, then run the smoke tests'
    writeFile(join(memoryDir, 'MEMORY.md'), `# Project memory\n\n${claudeLine}\n- [Other](other.md) — x\n`)
    writeFile(
      join(memoryDir, 'staging-vpn.md'),
      '---\nname: staging-vpn\ndescription: staging is behind the VPN\nmetadata:\n  type: project\n  node_type: memory\noriginSessionId: 6f2c0a1e-1111-2222-3333-444455556666\ntags: [infra, staging]\n---\n\nConnect first.\n',
    )
    const { call } = await connect(sb.env, sb.project)
    const read = JSON.parse((await call('memory_read', { path: 'staging-vpn.md' })).text) as { hash: string }
    const updated = await call(
      'memory_write',
      write({
        path: 'staging-vpn.md',
        name: 'staging-vpn',
        description: 'staging needs the WireGuard VPN',
        expected_hash: read.hash,
      }),
    )
    expect(updated.isError).toBeFalsy()
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(
      `# Project memory\n\n${claudeLine}\n- [Other](other.md) — x\n`,
    )
    const file = readFileSync(join(memoryDir, 'staging-vpn.md'), 'utf8')
    expect(file).toContain('description: staging needs the WireGuard VPN')
    expect(file).toContain('node_type: memory')
    expect(file).toContain('originSessionId: 6f2c0a1e-1111-2222-3333-444455556666')
    expect(file).toContain('\ntags: [infra, staging]\n') // as written: the list is not reflowed
  })
})
