import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mcpConfigs } from './mcp-configs.js'

const README = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8')

describe('MCP configs for each agent', () => {
  it('are the snippets the README shows, with its placeholder paths', () => {
    const shown = mcpConfigs('node', ['/path/to/memdir/bin/memdir.js'], '/path/to/project')
    expect(README).toContain(`${shown.claudeCode}   # Claude Code`)
    expect(README).toContain('```toml\n' + shown.codex + '\n```')
    expect(README).toContain('```json\n' + shown.gemini + '\n```')
  })

  it('keep a path with quotes, backslashes, spaces and control characters as one exact argument', () => {
    const project = `/work/"a" b\\c\tü's`
    const configs = mcpConfigs('/opt/node 22/bin/node', ['/x/memdir.js'], project)
    // Codex's TOML basic strings and arrays take JSON's escapes: the array reads back as written.
    const args = /^args = (\[.*\])$/m.exec(configs.codex)![1]!
    expect(JSON.parse(args)).toEqual(['/x/memdir.js', 'mcp', '--cwd', project])
    expect(configs.codex).toContain('command = "/opt/node 22/bin/node"')
    expect(JSON.parse(configs.gemini).mcpServers.memdir).toEqual({
      command: '/opt/node 22/bin/node',
      args: ['/x/memdir.js', 'mcp', '--cwd', project],
      trust: true,
    })
    expect(configs.claudeCode).toContain(`'/work/"a" b\\c\tü'\\''s'`)
  })
})
