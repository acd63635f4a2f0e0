import { parseArgs } from 'node:util'
import { createProjectContext } from '../host/project.js'
import { type CliIO, UsageError } from './io.js'
import { indexCommand } from './commands/index-file.js'
import { listCommand } from './commands/list.js'
import { pathCommand } from './commands/path.js'
import { promptCommand } from './commands/prompt.js'
import { recallCommand } from './commands/recall.js'
import { extractCommand } from './commands/extract.js'
import { watchCommand } from './commands/watch.js'
import { dreamCommand } from './commands/dream.js'
import { syncCommand } from './commands/sync.js'
import { teamServerCommand } from './commands/team-server.js'
import { webCommand } from './commands/web.js'
import { historyCommand, restoreCommand } from './commands/history.js'

export const USAGE = `memdir — Claude Code memory, from the command line

Usage: memdir <command> [options]

Commands:
  path [--json]                 the resolved memory dir, which rule chose it, and whether auto memory is on
  prompt [--mode M] [--json]    the memory prompt section the agent gets (M: normal | team | kairos)
  list [--json]                 the memory manifest (newest 200)
  index [--json]                MEMORY.md as the agent loads it, with the truncation warning
  recall "<query>" [--recent-tools a,b] [--json]
                                the memories recall selects for a query and the exact injected text
                                (offline lexical ranking, labelled, when no model is configured)
  extract --transcript FILE [--json]
                                run one extraction over a Claude Code transcript; prints what it wrote
  watch                         follow this project's Claude Code sessions, extract at each turn end
  dream [--force] [--json]      consolidate memories now if the gates pass (--force skips time/session gates)
  sync [--pull|--push] [--json] sync team/ with the team server (MEMDIR_TEAM_URL, MEMDIR_TEAM_TOKEN)
  team-server [--port P] [--host H] [--data FILE]
                                run the team memory server (SQLite FILE, or PostgreSQL when DATABASE_URL is set)
  team-server token add --repo owner/repo [--data FILE]
                                create a bearer token scoped to one repo
  history [FILE] [--json]       every recorded change (who: user, extraction, dream, team-pull, external)
  restore FILE --to VERSION     put FILE back as it was at VERSION (also brings back a deleted memory)
  web [--port P]                the desktop UI in a browser on 127.0.0.1 (prints a URL with an access token)

Options for every command:
  --cwd DIR                     project root (default: the current directory)
  --settings FILE               a flag-settings file, as Claude Code's --settings
  -h, --help                    this help

Environment: CLAUDE_CONFIG_DIR, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, CLAUDE_CODE_REMOTE_MEMORY_DIR,
CLAUDE_CODE_DISABLE_AUTO_MEMORY, CLAUDE_CODE_SIMPLE, CLAUDE_CODE_REMOTE, MEMDIR_TEAM_MEMORY,
MEMDIR_KAIROS, MEMDIR_POLICY_SETTINGS (managed settings file), MEMDIR_EXTRACTION=0 (extraction off),
MEMDIR_DATA_DIR (history, snapshots, settings; default ~/.memdir), MEMDIR_DREAM_MIN_HOURS, MEMDIR_DREAM_MIN_SESSIONS.
Team: MEMDIR_TEAM_URL, MEMDIR_TEAM_TOKEN, MEMDIR_TEAM_REPO (default: the git origin), DATABASE_URL (server).
Model: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, MEMDIR_SELECTOR_MODEL, MEMDIR_AGENT_MODEL.
Exit codes: 0 ok, 1 error, 2 bad usage.
`

const OPTIONS = {
  cwd: { type: 'string' },
  settings: { type: 'string' },
  json: { type: 'boolean', default: false },
  mode: { type: 'string' },
  'recent-tools': { type: 'string' },
  transcript: { type: 'string' },
  force: { type: 'boolean', default: false },
  pull: { type: 'boolean', default: false },
  push: { type: 'boolean', default: false },
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  repo: { type: 'string' },
  to: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const

async function dispatch(argv: string[], io: CliIO): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  const query = command === 'recall' ? rest.shift() : undefined
  const file = command === 'history' || command === 'restore' ? rest.shift() : undefined
  if (values.help || command === 'help') {
    io.stdout(USAGE)
    return 0
  }
  if (!command) throw new UsageError('no command given')
  const signal = io.signal ?? new AbortController().signal
  if (command === 'team-server') {
    return teamServerCommand(
      io,
      { sub: rest, port: values.port, host: values.host, data: values.data, repo: values.repo },
      signal,
    )
  }
  if (rest.length) throw new UsageError(`unexpected argument: ${rest[0]}`)
  if (command === 'web') return webCommand(io, { port: values.port, cwd: values.cwd }, signal)
  if (values.mode !== undefined && command !== 'prompt')
    throw new UsageError('--mode applies to `prompt` only')

  const ctx = createProjectContext({
    cwd: values.cwd ?? io.cwd,
    env: io.env,
    flagSettingsPath: values.settings,
  })
  switch (command) {
    case 'path':
      return pathCommand(ctx, io, values.json)
    case 'prompt':
      return promptCommand(ctx, io, values.json, values.mode)
    case 'list':
      return listCommand(ctx, io, values.json)
    case 'index':
      return indexCommand(ctx, io, values.json)
    case 'recall':
      return recallCommand(ctx, io, query, values['recent-tools'], values.json)
    case 'extract':
      return extractCommand(ctx, io, values.transcript, values.json)
    case 'watch':
      return watchCommand(ctx, io, signal)
    case 'dream':
      return dreamCommand(ctx, io, values.force, values.json)
    case 'history':
      return historyCommand(ctx, io, file, values.json)
    case 'restore':
      return restoreCommand(ctx, io, file, values.to)
    case 'sync':
      return syncCommand(ctx, io, values.pull, values.push, values.json)
    default:
      throw new UsageError(`unknown command: ${command}`)
  }
}

/** Runs one CLI invocation; returns the exit code. Never throws. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  try {
    return await dispatch(argv, io)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`memdir: ${e.message}\n\n${USAGE}`)
      return 2
    }
    io.stderr(`memdir: ${(e as Error).message.split('\n')[0]}\n`)
    return 1
  }
}
