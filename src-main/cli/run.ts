import { statSync, type Stats } from 'node:fs'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import {
  errnoOf,
  exitCodeFor,
  isFsError,
  MemdirError,
  messageOf,
  rethrowUnless,
} from '../../src-shared/errors.js'
// In the start-up chunk (base) with io.ts: static imports cost nothing a command would not pay.
import { loadAppSettings } from '../host/settings/app-data.js'
import { getAutoMemPath } from '../core/paths/auto-mem-path.js'
import { checkMemoryDirUsable } from '../core/paths/memory-dir-check.js'
import { createProjectContext } from '../host/settings/project.js'
import { COMMANDS, findCommand, flagsOf, synopsis, type CommandSpec, type Flag } from './command-table.js'
import { type CliIO, UsageError } from './io.js'

const ENVIRONMENT = `Environment: CLAUDE_CONFIG_DIR, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, CLAUDE_CODE_REMOTE_MEMORY_DIR,
CLAUDE_CODE_DISABLE_AUTO_MEMORY, CLAUDE_CODE_SIMPLE, CLAUDE_CODE_REMOTE, MEMDIR_TEAM_MEMORY,
MEMDIR_KAIROS, MEMDIR_POLICY_SETTINGS (managed settings file), MEMDIR_EXTRACTION=0 (extraction off),
MEMDIR_DATA_DIR (history, snapshots, settings; an absolute path or ~/…, default ~/.memdir), MEMDIR_DREAM_MIN_HOURS, MEMDIR_DREAM_MIN_SESSIONS.
Team (per project; these override it for the project a process is started for): MEMDIR_TEAM_URL, MEMDIR_TEAM_TOKEN, MEMDIR_TEAM_REPO
(default: the git origin); DATABASE_URL (team server).
Model: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, MEMDIR_SELECTOR_MODEL, MEMDIR_AGENT_MODEL.
Exit codes: 0 ok, 1 error, 2 bad usage or input (an unknown flag, a name the name rule refuses).`

/** `memdir --help`: every command from the one table, then the options and environment. */
export function usage(): string {
  const width = 44
  const lines = COMMANDS.map((c) => {
    const head = `  ${synopsis(c).slice('memdir '.length)}${c.project ? ' *' : ''}`
    return head.length < width
      ? `${head.padEnd(width)}${c.summary}`
      : `${head}\n${' '.repeat(width)}${c.summary}`
  })
  return [
    'memdir — Claude Code memory, from the command line',
    '',
    'Usage: memdir <command> [options]',
    '',
    "Commands (* also take --cwd DIR, the project root, and --settings FILE, a flag-settings file as Claude Code's --settings):",
    ...lines,
    '',
    'Every command takes -h, --help. `memdir <command> --help` shows one.',
    '',
    ENVIRONMENT,
    '',
  ].join('\n')
}

function commandUsage(c: CommandSpec): string {
  const common = c.project
    ? "\n  --cwd DIR       the project root (default: the current directory)\n  --settings FILE a flag-settings file, as Claude Code's --settings"
    : ''
  return `usage: ${synopsis(c)}\n  ${c.summary}${common}\n`
}

function parseOptions(flags: Record<string, Flag>): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    Object.entries(flags).map(([name, f]) => [
      name,
      f.type === 'string'
        ? { type: 'string' as const }
        : { type: 'boolean' as const, ...(f.short ? { short: f.short } : {}) },
    ]),
  )
}

/** A usage error that knows which command it is about (its usage is printed with it). */
class CommandUsageError extends UsageError {
  constructor(
    message: string,
    readonly command?: CommandSpec,
  ) {
    super(message)
  }
}

function scanChoice(c: CommandSpec, threads: string | undefined): 'inline' | 'threaded' {
  if (threads !== undefined) return threads === '0' ? 'inline' : 'threaded'
  return c.longRunning ? 'threaded' : 'inline'
}

async function dispatch(argv: string[], io: CliIO): Promise<number> {
  if (!argv.length) throw new CommandUsageError('no command given')
  if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    io.stdout(usage())
    return 0
  }
  const words = argv.slice(0, argv.findIndex((a) => a.startsWith('-')) >>> 0)
  const command = findCommand(words)
  if (!command) throw new CommandUsageError(`unknown command: ${words.join(' ') || argv[0]}`)
  let parsed
  try {
    parsed = parseArgs({
      args: argv.slice(command.words.length),
      options: parseOptions(flagsOf(command)),
      allowPositionals: true,
      strict: true,
    })
  } catch (e) {
    // An unknown flag, or a value missing: this command does not take it as given.
    throw new CommandUsageError(messageOf(e), command)
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout(commandUsage(command))
    return 0
  }
  if (positionals.length > command.args.max)
    throw new CommandUsageError(`unexpected argument: ${positionals[command.args.max]}`, command)
  if (positionals.length < command.args.min) throw new CommandUsageError('missing argument', command)
  const ctx = async () => {
    if (typeof values.cwd === 'string') checkCwdFlag(values.cwd)
    const c = createProjectContext({
      cwd: typeof values.cwd === 'string' ? values.cwd : io.cwd,
      env: io.env,
      flagSettingsPath: typeof values.settings === 'string' ? values.settings : undefined,
      // Short-lived commands read on the calling thread (a worker costs more to start than it
      // saves), long-running ones in worker threads; MEMDIR_SCAN_THREADS overrides either way.
      scan: scanChoice(command, io.env.MEMDIR_SCAN_THREADS),
    })
    if (command.memory) checkMemoryDirUsable(getAutoMemPath(c))
    const saved = loadAppSettings(c)
    // Team values an older Memdir saved globally move to their project first (hasLegacyTeamSettings).
    if (command.teamValues && (saved.teamUrl || saved.teamRepo)) {
      const { migrateLegacyTeamSettings } = await import('../host/settings/project-values.js')
      const { teamMigrationCandidates } = await import('../host/app/workspace-list.js')
      await migrateLegacyTeamSettings(c, await teamMigrationCandidates(c, io.env, c.projectRoot))
    }
    // Secrets kept outside the settings file are looked up only when the settings say there are some.
    if (!command.secrets || !loadAppSettings(c).secrets) return c
    return (await import('../host/integrations/cli-secrets.js')).withCliSecrets(c)
  }
  try {
    return await command.run({
      io,
      values,
      args: positionals,
      signal: io.signal ?? new AbortController().signal,
      ctx,
    })
  } catch (e) {
    // A command's own usage error is about that command: its usage, not every command's.
    if (e instanceof UsageError && !(e instanceof CommandUsageError))
      throw new CommandUsageError(e.message, command)
    throw e
  }
}

/** Runs one CLI invocation; returns the exit code. Never throws. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  try {
    return await dispatch(argv, io)
  } catch (e) {
    if (e instanceof UsageError) {
      const about = e instanceof CommandUsageError && e.command ? commandUsage(e.command) : usage()
      io.stderr(`memdir: ${e.message}\n\n${about}`)
      return 2
    }
    io.stderr(`memdir: ${messageOf(e).split('\n')[0]}\n`)
    return e instanceof MemdirError ? exitCodeFor(e.code) : 1
  }
}

/**
 * `--cwd DIR` names a project folder that is there: a typo would otherwise be answered for a
 * project that does not exist ("no memories in …/-home-me-shpo/memory/"), as if all were well.
 */
function checkCwdFlag(dir: string): void {
  if (!dir) throw new UsageError('--cwd needs a folder')
  let st: Stats
  try {
    st = statSync(dir)
  } catch (e) {
    rethrowUnless(isFsError(e), e)
    throw new UsageError(`--cwd ${dir}: no such folder (${errnoOf(e)})`)
  }
  if (!st.isDirectory()) throw new UsageError(`--cwd ${dir}: a file, not a folder`)
}
