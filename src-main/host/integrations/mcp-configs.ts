import type { IntegrationsView } from '../../../src-shared/types.js'
import { join } from 'node:path'
import { shellQuote } from './hook-command.js'

/**
 * Ready-to-copy MCP configs that start `memdir mcp` for one project, one per agent. The README's
 * "Use with your agent" shows these with placeholder paths, and the real-agent e2e tests run them.
 */
export function mcpConfigs(command: string, args: string[], projectRoot: string): IntegrationsView['mcp'] {
  const mcpArgs = [...args, 'mcp', '--cwd', projectRoot]
  const server = JSON.stringify({ mcpServers: { memdir: { command, args: mcpArgs } } }, null, 2)
  return {
    claudeCode: ['claude', 'mcp', 'add', 'memdir', '--', command, ...mcpArgs]
      .map((w) => shellQuote(w))
      .join(' '),
    claudeDesktop: server,
    cursor: server,
    // Both agents ask before each call of a server's write tools otherwise, and refuse it outright
    // when they run unattended (`codex exec`, `gemini -p`). Memdir checks every write itself.
    codex: [
      '[mcp_servers.memdir]',
      `command = ${tomlString(command)}`,
      `args = [${mcpArgs.map(tomlString).join(', ')}]`,
      'default_tools_approval_mode = "approve"',
    ].join('\n'),
    gemini: JSON.stringify({ mcpServers: { memdir: { command, args: mcpArgs, trust: true } } }, null, 2),
    // The project's own files, which each agent reads in that project only (Codex in a trusted
    // project): a snippet naming this project in ~/.codex or ~/.gemini would serve it everywhere.
    projectFiles: {
      cursor: join(projectRoot, '.cursor', 'mcp.json'),
      codex: join(projectRoot, '.codex', 'config.toml'),
      gemini: join(projectRoot, '.gemini', 'settings.json'),
    },
  }
}

/** A TOML basic string: JSON's escapes are a subset of TOML's, and JSON escapes every control char. */
function tomlString(s: string): string {
  return JSON.stringify(s)
}
