import type { ProjectContext } from '../core/paths/context.js'
import type { CliIO } from './io.js'

/** One flag a command takes: a string with its value's placeholder, or a boolean switch. */
export type Flag = { type: 'string'; value: string } | { type: 'boolean'; short?: string }

/** The flags of a command, parsed: strings and switches by name. */
export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>

/** One invocation: the command's own flags, its positionals after the command words, and its project. */
export interface Invocation {
  io: CliIO
  values: FlagValues
  args: string[]
  signal: AbortSignal
  /** The project the command works on (--cwd, --settings), with the secrets it may need. */
  ctx: () => Promise<ProjectContext>
}

export interface CommandSpec {
  /** The command words: `['team-server', 'token', 'add']`. */
  words: string[]
  /** What follows the words in the help and the README: positionals and flags. */
  usage: string
  /** One line for `memdir --help`. */
  summary: string
  /** Its own flags. A project command also takes --cwd and --settings; a command naming only `cwd` takes --cwd. */
  flags: Record<string, Flag>
  /** Positionals after the words: at least `min`, at most `max`. */
  args: { min: number; max: number }
  /** Works on a project: takes --cwd DIR and --settings FILE. */
  project?: boolean
  /** Reads or writes the project's memory dir: refused at once, naming the file, when a file stands there. */
  memory?: boolean
  /** Serves until stopped (reads memory files in worker threads). */
  longRunning?: boolean
  /** Needs the team token or API key the desktop app may keep. */
  secrets?: boolean
  /** Reads the project's team values (older global ones move to their project first). */
  teamValues?: boolean
  /** Each command loads only its own modules: `memdir hook prompt` runs before every prompt. */
  run: (inv: Invocation) => Promise<number>
}

const json: Record<string, Flag> = { json: { type: 'boolean' } }
const str = (value: string): Flag => ({ type: 'string', value })
const bool: Flag = { type: 'boolean' }
const s = (v: FlagValues, k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined)
const b = (v: FlagValues, k: string) => v[k] === true

/** The team server's own flags: where its data lives. */
const data = { data: str('FILE') }

async function teamServer(inv: Invocation, sub: string[]): Promise<number> {
  const { teamServerCommand } = await import('./commands/team-server.js')
  const v = inv.values
  return teamServerCommand(
    inv.io,
    {
      sub: [...sub, ...inv.args],
      port: s(v, 'port'),
      host: s(v, 'host'),
      data: s(v, 'data'),
      repo: s(v, 'repo'),
      expires: s(v, 'expires'),
      maxBody: s(v, 'max-body'),
      maxEntries: s(v, 'max-entries'),
      json: b(v, 'json'),
      trustProxy: b(v, 'trust-proxy'),
    },
    inv.signal,
  )
}

async function secret(inv: Invocation, action: string): Promise<number> {
  const { secretCommand } = await import('./commands/secret.js')
  const v = inv.values
  return secretCommand(await inv.ctx(), inv.io, action, inv.args[0], {
    json: b(v, 'json'),
    url: s(v, 'url'),
    repo: s(v, 'repo'),
  })
}

async function hooks(inv: Invocation, action: string): Promise<number> {
  const { hooksCommand } = await import('./commands/hooks.js')
  const v = inv.values
  return hooksCommand(await inv.ctx(), inv.io, action, {
    scope: s(v, 'scope'),
    dryRun: b(v, 'dry-run'),
    json: b(v, 'json'),
  })
}

async function hook(inv: Invocation, event: string): Promise<number> {
  const { hookCommand } = await import('./commands/hook.js')
  const v = inv.values
  return hookCommand(inv.io, event, {
    transcript: s(v, 'transcript'),
    session: s(v, 'session'),
    cwd: s(v, 'cwd'),
  })
}

/**
 * Every command of `memdir`, declared once: the dispatcher parses each invocation against its own
 * flags (an unknown one is a usage error), `--help` is generated from it, and a test checks the
 * README's CLI reference against it.
 */
export const COMMANDS: CommandSpec[] = [
  {
    words: ['path'],
    usage: '[--json]',
    summary: 'the resolved memory dir, which rule chose it, and whether auto memory is on',
    flags: json,
    args: { min: 0, max: 0 },
    project: true,
    run: async (inv) =>
      (await import('./commands/path.js')).pathCommand(await inv.ctx(), inv.io, b(inv.values, 'json')),
  },
  {
    words: ['prompt'],
    usage: '[--mode normal|team|kairos] [--json]',
    summary: 'the memory prompt section the agent gets',
    flags: { ...json, mode: str('MODE') },
    args: { min: 0, max: 0 },
    project: true,
    run: async (inv) =>
      (await import('./commands/prompt.js')).promptCommand(
        await inv.ctx(),
        inv.io,
        b(inv.values, 'json'),
        s(inv.values, 'mode'),
      ),
  },
  {
    words: ['list'],
    usage: '[--json]',
    summary: 'the memory manifest (newest 200)',
    flags: json,
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    run: async (inv) =>
      (await import('./commands/list.js')).listCommand(await inv.ctx(), inv.io, b(inv.values, 'json')),
  },
  {
    words: ['index'],
    usage: '[--json]',
    summary: 'MEMORY.md as the agent loads it (200 lines / 25,000 characters), with the truncation warning',
    flags: json,
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    run: async (inv) =>
      (await import('./commands/index-file.js')).indexCommand(await inv.ctx(), inv.io, b(inv.values, 'json')),
  },
  {
    words: ['recall'],
    usage: '"<query>" [--recent-tools a,b] [--json]',
    summary: 'the memories recall selects for a query and the exact injected text',
    flags: { ...json, 'recent-tools': str('a,b') },
    args: { min: 1, max: 1 },
    project: true,
    memory: true,
    secrets: true,
    run: async (inv) =>
      (await import('./commands/recall.js')).recallCommand(
        await inv.ctx(),
        inv.io,
        inv.args[0],
        s(inv.values, 'recent-tools'),
        b(inv.values, 'json'),
      ),
  },
  {
    words: ['extract'],
    usage: '--transcript FILE [--session ID] [--json]',
    summary: 'run one extraction over a Claude Code transcript; prints what it wrote',
    flags: { ...json, transcript: str('FILE'), session: str('ID') },
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    secrets: true,
    run: async (inv) =>
      (await import('./commands/extract.js')).extractCommand(
        await inv.ctx(),
        inv.io,
        s(inv.values, 'transcript'),
        b(inv.values, 'json'),
        s(inv.values, 'session'),
      ),
  },
  {
    words: ['watch'],
    usage: '',
    summary: "follow this project's Claude Code sessions and extract at each turn end, until Ctrl-C",
    flags: {},
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    longRunning: true,
    secrets: true,
    teamValues: true,
    run: async (inv) =>
      (await import('./commands/watch.js')).watchCommand(await inv.ctx(), inv.io, inv.signal),
  },
  {
    words: ['dream'],
    usage: '[--force] [--json]',
    summary: 'consolidate memories now if the gates pass (--force skips the time and session gates)',
    flags: { ...json, force: bool },
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    secrets: true,
    run: async (inv) =>
      (await import('./commands/dream.js')).dreamCommand(
        await inv.ctx(),
        inv.io,
        b(inv.values, 'force'),
        b(inv.values, 'json'),
      ),
  },
  {
    words: ['sync'],
    usage: '[--pull|--push] [--json]',
    summary: "sync this project's team/ with its team server and repo",
    flags: { ...json, pull: bool, push: bool },
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    secrets: true,
    teamValues: true,
    run: async (inv) =>
      (await import('./commands/sync.js')).syncCommand(
        await inv.ctx(),
        inv.io,
        b(inv.values, 'pull'),
        b(inv.values, 'push'),
        b(inv.values, 'json'),
      ),
  },
  {
    words: ['doctor'],
    usage: '[--json] [--fix KIND]',
    summary: 'memory health; exit 1 while errors remain; --fix applies one kind of fix everywhere',
    flags: { ...json, fix: str('KIND') },
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    secrets: true,
    run: async (inv) =>
      (await import('./commands/doctor.js')).doctorCommand(
        await inv.ctx(),
        inv.io,
        b(inv.values, 'json'),
        s(inv.values, 'fix'),
      ),
  },
  {
    words: ['history'],
    usage: '[FILE] [--json]',
    summary: 'every recorded change of the memory dir (or one file) and who made it',
    flags: json,
    args: { min: 0, max: 1 },
    project: true,
    memory: true,
    run: async (inv) =>
      (await import('./commands/history.js')).historyCommand(
        await inv.ctx(),
        inv.io,
        inv.args[0],
        b(inv.values, 'json'),
      ),
  },
  {
    words: ['restore'],
    usage: 'FILE --to VERSION',
    summary: 'put FILE back as it was at VERSION (also brings back a deleted memory)',
    flags: { to: str('VERSION') },
    args: { min: 1, max: 1 },
    project: true,
    memory: true,
    run: async (inv) =>
      (await import('./commands/history.js')).restoreCommand(
        await inv.ctx(),
        inv.io,
        inv.args[0],
        s(inv.values, 'to'),
      ),
  },
  {
    words: ['web'],
    usage: '[--port P] [--cwd DIR]',
    summary: 'the desktop UI in a browser on 127.0.0.1 (prints a URL with an access token)',
    flags: { port: str('P'), cwd: str('DIR') },
    args: { min: 0, max: 0 },
    longRunning: true,
    run: async (inv) =>
      (await import('./commands/web.js')).webCommand(
        inv.io,
        { port: s(inv.values, 'port'), cwd: s(inv.values, 'cwd') },
        inv.signal,
      ),
  },
  {
    words: ['mcp'],
    usage: '',
    summary: "an MCP server on stdio for the project's memory",
    flags: {},
    args: { min: 0, max: 0 },
    project: true,
    memory: true,
    longRunning: true,
    secrets: true,
    teamValues: true,
    run: async (inv) => (await import('./commands/mcp.js')).mcpCommand(await inv.ctx(), inv.io, inv.signal),
  },
  ...(['install', 'uninstall'] as const).map((action): CommandSpec => ({
    words: ['hooks', action],
    usage: '[--scope user|project|local] [--dry-run] [--json]',
    summary: `${action === 'install' ? 'add' : 'remove'} Memdir's Claude Code hooks in a scope's settings file (default user)`,
    flags: { ...json, scope: str('SCOPE'), 'dry-run': bool },
    args: { min: 0, max: 0 },
    project: true,
    run: (inv) => hooks(inv, action),
  })),
  {
    words: ['hooks', 'status'],
    usage: '[--json]',
    summary:
      'per scope: the settings file, which hooks are installed, whether they run another Memdir; a warning when Claude Code’s own settings (disableAllHooks) turn hooks off',
    flags: json,
    args: { min: 0, max: 0 },
    project: true,
    run: (inv) => hooks(inv, 'status'),
  },
  ...(['prompt', 'stop'] as const).map((event): CommandSpec => ({
    words: ['hook', event],
    usage: '',
    summary: `what the installed ${event === 'prompt' ? 'UserPromptSubmit' : 'Stop and SessionEnd'} hook runs: reads the hook JSON on stdin; always exits 0`,
    flags: {},
    args: { min: 0, max: 0 },
    run: (inv) => hook(inv, event),
  })),
  {
    words: ['hook', 'extract'],
    usage: '--transcript FILE --session ID [--cwd DIR]',
    summary:
      'the background extraction `hook stop` starts when no app runs (exits when done, out of time, or its memory dir is gone)',
    flags: { transcript: str('FILE'), session: str('ID'), cwd: str('DIR') },
    args: { min: 0, max: 0 },
    run: (inv) => hook(inv, 'extract'),
  },
  {
    words: ['secret', 'status'],
    usage: '[--json]',
    summary: 'where the team token and API key are, and whether this process can use them',
    flags: json,
    args: { min: 0, max: 0 },
    project: true,
    teamValues: true,
    run: (inv) => secret(inv, 'status'),
  },
  ...(['set', 'clear'] as const).map((action): CommandSpec => ({
    words: ['secret', action],
    usage: 'team-token|api-key [--url URL --repo owner/name]',
    summary:
      action === 'set'
        ? "keep the value read from stdin in a 0600 file for the command line (a team token: for this project's server and repo, or --url/--repo)"
        : 'forget a secret kept for the command line',
    flags: { url: str('URL'), repo: str('owner/name') },
    args: { min: 1, max: 1 },
    project: true,
    teamValues: true,
    run: (inv) => secret(inv, action),
  })),
  {
    words: ['team-server'],
    usage: '[--port P] [--host H] [--data FILE] [--max-body BYTES] [--max-entries N] [--trust-proxy]',
    summary: 'run the team memory server (SQLite FILE, or PostgreSQL when DATABASE_URL is set)',
    flags: {
      port: str('P'),
      host: str('H'),
      ...data,
      'max-body': str('BYTES'),
      'max-entries': str('N'),
      'trust-proxy': bool,
    },
    args: { min: 0, max: 0 },
    longRunning: true,
    run: (inv) => teamServer(inv, []),
  },
  {
    words: ['team-server', 'token', 'add'],
    usage: '--repo owner/repo [--expires 30d] [--data FILE]',
    summary: 'print a new bearer token for one repo (optionally expiring)',
    flags: { repo: str('owner/repo'), expires: str('30d'), ...data },
    args: { min: 0, max: 0 },
    run: (inv) => teamServer(inv, ['token', 'add']),
  },
  {
    words: ['team-server', 'token', 'list'],
    usage: '[--json] [--data FILE]',
    summary: 'list tokens by id (the token itself is never stored), state, dates and repos',
    flags: { ...json, ...data },
    args: { min: 0, max: 0 },
    run: (inv) => teamServer(inv, ['token', 'list']),
  },
  {
    words: ['team-server', 'token', 'revoke'],
    usage: 'ID [--data FILE]',
    summary: 'revoke a token by the id `token list` shows',
    flags: data,
    args: { min: 1, max: 1 },
    run: (inv) => teamServer(inv, ['token', 'revoke']),
  },
  {
    words: ['team-server', 'key', 'list'],
    usage: '--repo owner/repo [--json] [--data FILE]',
    summary:
      "a repo's stored keys and sizes, flagging keys no client can write and secrets (an older server took them)",
    flags: { repo: str('owner/repo'), ...json, ...data },
    args: { min: 0, max: 0 },
    run: (inv) => teamServer(inv, ['key', 'list']),
  },
  {
    words: ['team-server', 'key', 'delete'],
    usage: '--repo owner/repo KEY [--data FILE]',
    summary: 'delete one stored key, whatever its name',
    flags: { repo: str('owner/repo'), ...data },
    args: { min: 1, max: 1 },
    run: (inv) => teamServer(inv, ['key', 'delete']),
  },
]

/** `memdir <words> <usage>`, as the help and the README write a command. */
export const synopsis = (c: CommandSpec) => ['memdir', ...c.words, c.usage].filter(Boolean).join(' ')

/** The flags a command takes: its own, plus --cwd/--settings for a project command, plus --help. */
export function flagsOf(c: CommandSpec): Record<string, Flag> {
  return {
    ...(c.project ? { cwd: str('DIR'), settings: str('FILE') } : {}),
    ...c.flags,
    help: { type: 'boolean', short: 'h' },
  }
}

/** The command `words` name: the longest declared command whose words they start with. */
export function findCommand(words: readonly string[]): CommandSpec | undefined {
  let best: CommandSpec | undefined
  for (const c of COMMANDS)
    if (c.words.every((w, i) => words[i] === w) && c.words.length > (best?.words.length ?? 0)) best = c
  return best
}
