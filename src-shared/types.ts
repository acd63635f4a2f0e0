/** Shapes the UI sees. No runtime code: the contract between host and renderer. */
export type MemoryType = 'user' | 'feedback' | 'project' | 'reference'
export type MemoryScope = 'private' | 'team' | 'agent'

export interface WorkspaceSummary {
  /** '' when no transcript tells it and the user has not picked the folder yet. */
  projectRoot: string
  label: string
  memoryDir: string
  /** Memories as the browser lists them (the memory dir's files and the project's agent memories). */
  memoryCount: number
  /** Opened by path (a recent), not found under Claude Code's projects dir. */
  recent: boolean
}

export interface WorkspaceInfo {
  projectRoot: string
  memoryDir: string
  /** The memory dir with the home dir shortened to ~ (the full path is memoryDir). */
  memoryDirShort: string
  teamDir: string
  /** env | settings:<source> | default */
  source: string
  enabled: boolean
  enabledReason: string
  rejected: { source: string; value: string; reason: string }[]
  teamEnabled: boolean
  teamReason: string
  isDemo: boolean
  modelConfigured: boolean
}

export interface MemoryListItem {
  relPath: string
  name: string
  description: string | null
  type: MemoryType | null
  scope: MemoryScope
  mtimeMs: number
  /** "today", "yesterday", "47 days ago" */
  age: string
  ageDays: number
}

export interface MemoryDoc extends MemoryListItem {
  body: string
  raw: string
  hash: string
  /**
   * Where the file really lives when a symlink keeps it outside the memory dir: it is read (as
   * Claude Code and recall read it) but never written through the link.
   */
  linkedTo?: string
  /** Its line in MEMORY.md is past the index's cut (200 lines / 25,000 characters): agents do not see it there. */
  pastIndexCut?: true
}

export interface ConflictDetails {
  relPath: string
  /** What is on disk now (null: deleted). */
  current: string | null
  currentHash: string | null
  attempted: string
}

export interface IndexView {
  path: string
  exists: boolean
  /** The file with CRLF normalised; `lineStates` has one entry per `raw.split('\n')` line. */
  raw: string
  /** What the agent loads (cut, with the warning). */
  loaded: string
  /** Lines and characters (UTF-16 code units, as Claude Code counts) once frontmatter and comments are stripped. */
  lineCount: number
  charCount: number
  maxLines: number
  maxChars: number
  keptLines: number
  /** loaded: the agent sees it; stripped: frontmatter/comment, not loaded and not counted; cut: past a limit. */
  lineStates: ('loaded' | 'stripped' | 'cut')[]
  warning: string | null
}

export interface PromptPreview {
  mode: 'normal' | 'team' | 'kairos'
  enabled: boolean
  prompt: string | null
  reason?: string
}

export interface RecallPreview {
  mode: 'model' | 'offline'
  note?: string
  error?: string
  candidates: number
  selected: { relPath: string; path: string; age: string; ageDays: number; freshness: string }[]
  injections: string[]
}

export type ActivityKind = 'extraction' | 'dream' | 'sync' | 'recall' | 'agent' | 'settings'

export interface ActivityItem {
  /** Unique across processes: the app, the CLI, hooks and the MCP server all append to one feed. */
  id: string
  at: number
  kind: ActivityKind
  /** Who caused it when not the app itself: "hook", "mcp: Claude Desktop", "cli". */
  source?: string
  /** The same entry repeated this many times in a row (shown once, "×N"). */
  count?: number
  level: 'info' | 'success' | 'warning' | 'error'
  title: string
  detail?: string
  files: string[]
  /** The run's history id: "Undo" reverts all its changes. */
  runId?: string
  /** Review mode: the proposal waiting in the inbox. */
  proposalId?: string
  /** A team conflict: the local versions the server's replaced, each restorable (then pushed). */
  restore?: { path: string; version: number }[]
}

export type HistoryAuthor = 'user' | 'extraction' | 'dream' | 'team-pull' | 'external' | 'mcp'

/** A timeline's newest changes, and whether older ones exist beyond them. */
export interface HistoryPage {
  items: HistoryItem[]
  more: boolean
}

export interface HistoryItem {
  id: number
  at: number
  path: string
  author: HistoryAuthor
  change: 'baseline' | 'create' | 'modify' | 'delete' | 'restore' | 'verify'
  runId?: string
  /** A restore: the version it brought back. */
  restoredFrom?: number
  /** The MCP client's name, for author `mcp`. */
  client?: string
  /** The memory's name in this version (or the last one, for a delete). */
  name?: string
  /** The MEMORY.md change made with this one (its pointer line), shown with it. */
  indexEntry?: number
}

export interface DiffLine {
  op: 'same' | 'add' | 'del'
  text: string
}

export interface HistoryDiff {
  entry: HistoryItem
  before: string | null
  after: string | null
  lines: DiffLine[]
}

/** What undoing a run did (`history/undoRun`). */
export interface UndoOutcome {
  /** Files written back to before the run, or with the run's own changes taken out of later ones. */
  undone: string[]
  /** Files changed since the run where an undo would overwrite what was written since: kept. */
  kept: { path: string; reason: string }[]
}

export interface ProposalView {
  id: string
  createdAt: number
  author: 'extraction' | 'dream' | 'mcp' | 'health'
  client?: string
  reason: string
  files: {
    path: string
    before: string | null
    after: string | null
    lines: DiffLine[]
    /** Secrets the proposed content would add (rule and line, never the value): it needs an edit first. */
    secrets?: { ruleId: string; description: string; line: number }[]
  }[]
}

export interface TeamStatus {
  /**
   * off: team memory is switched off · not-configured: on, a server/token/repo is missing ·
   * ready: syncing in the background, last sync fine · syncing: a sync runs now · error: the last one failed
   */
  state: 'off' | 'not-configured' | 'ready' | 'syncing' | 'error'
  /** The scheduler runs: "Sync now" can work. */
  enabled: boolean
  reason?: string
  /** This project's team server and repo (never another project's). */
  url?: string
  repo?: string
  /** The repo when none is set: this project's git origin. */
  repoDefault?: string
  /** The memory dir whose team/ this status is about. */
  memoryDir?: string
  tokenSet: boolean
  lastSync?: {
    at: number
    pulled: string[]
    pushed: string[]
    skipped: { key: string; kind: string; reason: string }[]
    /** Keys both sides changed: the server's version is on disk; `localVersion` restores yours. */
    conflicts: { key: string; localVersion?: number }[]
  }
  lastError?: string
  syncing: boolean
}

export type SettingSource = 'env' | 'settings' | 'default'

export interface SettingsView {
  modelBaseURL: string
  modelApiKeySet: boolean
  selectorModel: string
  agentModel: string
  extractionEnabled: boolean
  dreamEnabled: boolean
  dreamMinHours: number
  dreamMinSessions: number
  teamUrl: string
  teamTokenSet: boolean
  /**
   * Where the saved secrets live: the OS keychain, a 0600 file, or (an older Memdir, not migrated
   * yet) the settings file; absent when not saved. `keychain`: this app can use the OS keychain.
   */
  secretStorage: {
    teamToken?: 'keychain' | 'file' | 'settings'
    apiKey?: 'keychain' | 'file' | 'settings'
    keychain: boolean
  }
  teamRepo: string
  reviewMode: boolean
  memoryFormat: 'auto' | 'flat' | 'nested'
  /** The app's team-memory switch (null: not set, Claude Code's settings or the default decide). */
  teamMemoryEnabled: boolean | null
  /** Desktop app: closing the window keeps Memdir running in the tray. */
  keepInBackground: boolean
  startAtLogin: boolean
  /** Where each value in use comes from: an environment variable overrides the saved setting. */
  sources: Record<string, { source: SettingSource; envVar?: string }>
  /** The settings file could not be read (it was set aside); defaults apply. */
  problem?: string
  /** The open project's Claude Code, and what follows from it (absent with no project open). */
  client?: ClientMemoryView
}

/** The Claude Code the user runs beside Memdir, and how Memdir lives with it. */
export interface ClientMemoryView {
  /** Its version: from the project's newest transcript, else `claude --version`. */
  version?: string
  versionSource?: 'transcript' | 'installed'
  /** How Memdir writes new memories here (the setting, else what that client writes). */
  format: 'flat' | 'nested'
  /** The keys stamped on each memory written (`node_type`, `originSessionId`, `modified`). */
  stamps: string[]
  /** The client saves memories itself: Memdir does not extract its turns again. */
  extracts: boolean
  /** The client recalls memories itself: Memdir does not inject one it already surfaced. */
  recalls: boolean
}

export type HookScope = 'user' | 'project' | 'local'

export interface HookStatusView {
  scope: HookScope
  /** The Claude Code settings file for this scope. */
  path: string
  exists: boolean
  problem?: string
  events: Record<'UserPromptSubmit' | 'Stop' | 'SessionEnd', boolean>
  installed: boolean
  outdated: boolean
}

export interface HookPlanView {
  scope: HookScope
  action: 'install' | 'uninstall'
  path: string
  changed: boolean
  /** Unified diff of the settings file: shown before anything is written. */
  diff: string
  /** sha256 of the file as planned (null: no file): apply refuses if it changed since. */
  beforeHash: string | null
}

/** Why Claude Code runs none of Memdir's hooks: the settings file and the switch in it. */
export interface HooksOff {
  path: string
  setting: 'disableAllHooks' | 'allowManagedHooksOnly'
}

export interface IntegrationsView {
  /** What the installed hooks run. */
  hookCommand: string
  hooks: HookStatusView[]
  /** Set when Claude Code's settings turn hooks off for this project: installed or not, none runs. */
  hooksOff?: HooksOff
  mcp: {
    /** `claude mcp add …` for Claude Code. */
    claudeCode: string
    /** The `mcpServers` entry for Claude Desktop's claude_desktop_config.json. */
    claudeDesktop: string
    /** The same for Cursor's .cursor/mcp.json. */
    cursor: string
    /** The `[mcp_servers.memdir]` table for Codex CLI's config.toml. */
    codex: string
    /** The `mcpServers` entry for Gemini CLI's settings.json (trusted: no prompt per call). */
    gemini: string
    /**
     * Where Cursor's, Codex's and Gemini's snippets go: this project's own config file of each. Each
     * snippet names this project (`--cwd`); in the agent's user-wide file it would serve this
     * project's memory in every project.
     */
    projectFiles: { cursor: string; codex: string; gemini: string }
  }
}

export interface SearchHitView {
  relPath: string
  score: number
  /** Words of the memory that matched, for highlighting (empty past the first 120 hits: highlight the query's words). */
  terms: string[]
  /** The body around the first match, when the body matched. */
  snippet?: string
}

export interface DreamStatusView {
  gates: { gate: string; ok: boolean; detail: string }[]
  lastConsolidatedAt?: number
  running: boolean
  sessions: number
}

export interface DreamRunResult {
  outcome: 'blocked' | 'improved' | 'failed' | 'proposed'
  message: string
}

export type HealthFixKind =
  'remove-pointer' | 'add-pointer' | 'compact-index' | 'verify' | 'update-path' | 'merge' | 'open'

/** One thing health found (core/health): what, how bad, the evidence, and the fixes that apply. */
export interface HealthFindingView {
  id: string
  kind: string
  severity: 'error' | 'warning' | 'info'
  path: string
  other?: string
  message: string
  evidence: string[]
  fixes: HealthFixKind[]
  subject?: string
  movedTo?: string
}

export interface HealthView {
  findings: HealthFindingView[]
  counts: Record<string, number>
  errors: number
  warnings: number
  memories: number
  git: { available: boolean; commits: number; head?: string }
  rechecked: { memories: number; commits: number }
  checkedAt: number
  /** The model's contradiction check: off (no model), or what it has done so far. */
  contradictions: 'off' | ContradictionStatus
}

/**
 * The contradiction check asks a model (paid usage): it runs only when the user asks for it
 * (`health/checkContradictions`, `memdir doctor`); otherwise a report shows what it found before.
 */
export interface ContradictionStatus {
  /** When it last asked the model (null: never in this session). */
  lastRunAt: number | null
  /** Model calls it has made in this session. */
  calls: number
  /** Same-topic pairs whose current contents the model has not been asked about. */
  unchecked: number
  /** Why the last run failed. */
  failed?: string
}

/** "Fix all": one fix applied to every finding of a kind, as one run (one undo). */
export interface HealthFixAllResult {
  message: string
  /** Files written, each once in history, under `runId`. */
  changed: string[]
  /** The run to undo (`history/undoRun`); absent when nothing was written. */
  runId?: string
  /** Findings the fix could not apply to, with why. */
  failed: { path: string; reason: string }[]
  /** What was done for each finding it applied to. */
  applied: string[]
}

export interface HealthFixResult {
  message: string
  /** Files the fix wrote (recorded in history as the user's). */
  changed: string[]
  /** A merge: the proposal waiting in the review inbox. */
  proposalId?: string
}
