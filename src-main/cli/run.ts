import { messageOf } from '../../src-shared/errors.js'
import { parseArgs } from 'node:util'
import type { ProjectContext } from '../core/paths/context.js'
// In the start-up chunk (base) with io.ts: static imports cost nothing a command would not pay.
import { loadAppSettings } from '../host/settings/app-data.js'
import { createProjectContext } from '../host/settings/project.js'
import { type CliIO, UsageError } from './io.js'

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
  team-server [--port P] [--host H] [--data FILE] [--max-body BYTES] [--max-entries N] [--trust-proxy]
                                run the team memory server (SQLite FILE, or PostgreSQL when DATABASE_URL is set;
                                several instances may share one PostgreSQL). GET /healthz, /readyz; one JSON
                                access-log line per request on stdout; SIGTERM finishes in-flight requests
  team-server token add --repo owner/repo [--expires 30d] | token list [--json] | token revoke ID
                                bearer tokens scoped to one repo: create (optionally expiring), list, revoke
  doctor [--json] [--fix KIND]  memory health: dead or missing index pointers, cut index lines, memories whose
                                code changed or moved (git), duplicates, weak frontmatter, secrets; exit 1 on
                                errors. KIND: remove-pointer, add-pointer, compact-index, update-path, merge, verify
  history [FILE] [--json]       every recorded change (who: user, extraction, dream, team-pull, external)
  restore FILE --to VERSION     put FILE back as it was at VERSION (also brings back a deleted memory)
  web [--port P]                the desktop UI in a browser on 127.0.0.1 (prints a URL with an access token)
  mcp                           an MCP server on stdio for this project's memory (tools memory_list/read/
                                search/write/delete, resources memory:///…); writes are recorded as \`mcp\`
  hooks install|uninstall|status [--scope user|project|local] [--dry-run]
                                Claude Code hooks: recall on each prompt, extraction when a turn ends
  hook prompt | hook stop       what the installed hooks run (reads the hook JSON on stdin; never blocks)
  secret status [--json] | secret set team-token|api-key | secret clear team-token|api-key
                                where the team token and API key live (the desktop app keeps them in the OS
                                keychain); \`set\` reads the value on stdin and keeps it in a 0600 file for the CLI

Options for every command:
  --cwd DIR                     project root (default: the current directory)
  --settings FILE               a flag-settings file, as Claude Code's --settings
  --json                        machine-readable output (where a command has it)
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
  session: { type: 'string' },
  force: { type: 'boolean', default: false },
  pull: { type: 'boolean', default: false },
  push: { type: 'boolean', default: false },
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  repo: { type: 'string' },
  url: { type: 'string' },
  to: { type: 'string' },
  scope: { type: 'string' },
  fix: { type: 'string' },
  expires: { type: 'string' },
  'max-body': { type: 'string' },
  'max-entries': { type: 'string' },
  'trust-proxy': { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

/** One invocation: the parsed flags, the positionals after the command, and a lazily built project. */
export interface Invocation {
  io: CliIO
  values: Values
  args: string[]
  signal: AbortSignal
  ctx: () => Promise<ProjectContext>
}

/** Commands that serve until stopped: they keep the scan worker threads. */
const LONG_RUNNING = new Set(['web', 'watch', 'mcp', 'team-server'])

function scanChoice(command: string, threads: string | undefined): 'inline' | 'threaded' {
  if (threads !== undefined) return threads === '0' ? 'inline' : 'threaded'
  return LONG_RUNNING.has(command) ? 'threaded' : 'inline'
}

function noMoreArgs(inv: Invocation, keep = 0): string[] {
  if (inv.args.length > keep) throw new UsageError(`unexpected argument: ${inv.args[keep]}`)
  return inv.args
}

/**
 * Each command loads only its own modules: `memdir hook prompt` runs on every Claude Code prompt,
 * so it must not pay for the web server, the team server or the agents.
 */
const COMMANDS: Record<string, (inv: Invocation) => Promise<number>> = {
  async path(inv) {
    noMoreArgs(inv)
    return (await import('./commands/path.js')).pathCommand(await inv.ctx(), inv.io, inv.values.json)
  },
  async prompt(inv) {
    noMoreArgs(inv)
    const { promptCommand } = await import('./commands/prompt.js')
    return promptCommand(await inv.ctx(), inv.io, inv.values.json, inv.values.mode)
  },
  async list(inv) {
    noMoreArgs(inv)
    return (await import('./commands/list.js')).listCommand(await inv.ctx(), inv.io, inv.values.json)
  },
  async index(inv) {
    noMoreArgs(inv)
    return (await import('./commands/index-file.js')).indexCommand(await inv.ctx(), inv.io, inv.values.json)
  },
  async recall(inv) {
    const [query] = noMoreArgs(inv, 1)
    const { recallCommand } = await import('./commands/recall.js')
    return recallCommand(await inv.ctx(), inv.io, query, inv.values['recent-tools'], inv.values.json)
  },
  async extract(inv) {
    noMoreArgs(inv)
    const { extractCommand } = await import('./commands/extract.js')
    return extractCommand(await inv.ctx(), inv.io, inv.values.transcript, inv.values.json, inv.values.session)
  },
  async watch(inv) {
    noMoreArgs(inv)
    return (await import('./commands/watch.js')).watchCommand(await inv.ctx(), inv.io, inv.signal)
  },
  async dream(inv) {
    noMoreArgs(inv)
    const { dreamCommand } = await import('./commands/dream.js')
    return dreamCommand(await inv.ctx(), inv.io, inv.values.force, inv.values.json)
  },
  async doctor(inv) {
    noMoreArgs(inv)
    const { doctorCommand } = await import('./commands/doctor.js')
    return doctorCommand(await inv.ctx(), inv.io, inv.values.json, inv.values.fix)
  },
  async history(inv) {
    const [file] = noMoreArgs(inv, 1)
    const { historyCommand } = await import('./commands/history.js')
    return historyCommand(await inv.ctx(), inv.io, file, inv.values.json)
  },
  async restore(inv) {
    const [file] = noMoreArgs(inv, 1)
    const { restoreCommand } = await import('./commands/history.js')
    return restoreCommand(await inv.ctx(), inv.io, file, inv.values.to)
  },
  async sync(inv) {
    noMoreArgs(inv)
    const { syncCommand } = await import('./commands/sync.js')
    return syncCommand(await inv.ctx(), inv.io, inv.values.pull, inv.values.push, inv.values.json)
  },
  async 'team-server'(inv) {
    const { teamServerCommand } = await import('./commands/team-server.js')
    const v = inv.values
    return teamServerCommand(
      inv.io,
      {
        sub: inv.args,
        port: v.port,
        host: v.host,
        data: v.data,
        repo: v.repo,
        expires: v.expires,
        maxBody: v['max-body'],
        maxEntries: v['max-entries'],
        json: v.json,
        trustProxy: v['trust-proxy'],
      },
      inv.signal,
    )
  },
  async web(inv) {
    noMoreArgs(inv)
    const { webCommand } = await import('./commands/web.js')
    return webCommand(inv.io, { port: inv.values.port, cwd: inv.values.cwd }, inv.signal)
  },
  async mcp(inv) {
    noMoreArgs(inv)
    return (await import('./commands/mcp.js')).mcpCommand(await inv.ctx(), inv.io, inv.signal)
  },
  async hooks(inv) {
    const [sub] = noMoreArgs(inv, 1)
    const { hooksCommand } = await import('./commands/hooks.js')
    return hooksCommand(await inv.ctx(), inv.io, sub, {
      scope: inv.values.scope,
      dryRun: inv.values['dry-run'],
      json: inv.values.json,
    })
  },
  async secret(inv) {
    const [action, name] = noMoreArgs(inv, 2)
    const { secretCommand } = await import('./commands/secret.js')
    return secretCommand(await inv.ctx(), inv.io, action, name, {
      json: inv.values.json,
      url: inv.values.url,
      repo: inv.values.repo,
    })
  },
  async hook(inv) {
    const [event] = noMoreArgs(inv, 1)
    const v = inv.values
    const { hookCommand } = await import('./commands/hook.js')
    return hookCommand(inv.io, event, { transcript: v.transcript, session: v.session, cwd: v.cwd })
  },
}

/** Commands that may call the model or the team server: they look up the secrets the app keeps. */
const NEEDS_SECRETS = new Set(['recall', 'extract', 'watch', 'dream', 'sync', 'mcp', 'doctor'])
/** Commands that read a project's team values: older global ones move to their project first. */
const READS_TEAM_VALUES = new Set(['sync', 'watch', 'mcp', 'secret', 'web'])

async function dispatch(argv: string[], io: CliIO): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError(messageOf(e))
  }
  const { values, positionals } = parsed
  const [command, ...args] = positionals
  if (values.help || command === 'help') {
    io.stdout(USAGE)
    return 0
  }
  if (!command) throw new UsageError('no command given')
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  if (!run) throw new UsageError(`unknown command: ${command}`)
  if (values.mode !== undefined && command !== 'prompt')
    throw new UsageError('--mode applies to `prompt` only')
  const ctx = async () => {
    const c = createProjectContext({
      cwd: values.cwd ?? io.cwd,
      env: io.env,
      flagSettingsPath: values.settings,
      // Short-lived commands read on the calling thread (a worker costs more to start than it
      // saves), long-running ones in worker threads; MEMDIR_SCAN_THREADS overrides either way.
      scan: scanChoice(command, io.env.MEMDIR_SCAN_THREADS),
    })
    const saved = loadAppSettings(c)
    // (hasLegacyTeamSettings, without loading its module on every start)
    if (READS_TEAM_VALUES.has(command) && (saved.teamUrl || saved.teamRepo)) {
      const { migrateLegacyTeamSettings } = await import('../host/settings/project-values.js')
      const { teamMigrationCandidates } = await import('../host/app/workspace-list.js')
      await migrateLegacyTeamSettings(c, await teamMigrationCandidates(c, io.env, c.projectRoot))
    }
    // Secrets kept outside the settings file are looked up only when the settings say there are some.
    if (!NEEDS_SECRETS.has(command)) return c
    if (!loadAppSettings(c).secrets) return c
    return (await import('../host/integrations/cli-secrets.js')).withCliSecrets(c)
  }
  return run({ io, values, args, signal: io.signal ?? new AbortController().signal, ctx })
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
    io.stderr(`memdir: ${messageOf(e).split('\n')[0]}\n`)
    return 1
  }
}
