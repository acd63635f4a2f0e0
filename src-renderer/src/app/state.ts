import type { MemdirClient, MemdirEvent } from '../../../src-shared/api'
import type { BatchFix, MemoryInput, SettingsInput } from '../../../src-shared/contract'
import type {
  ActivityItem,
  ConflictDetails,
  DreamRunResult,
  HealthFixAllResult,
  HealthFixKind,
  HealthFixResult,
  HealthView,
  HookPlanView,
  HookStatusView,
  MemoryDoc,
  MemoryListItem,
  MemoryScope,
  MemoryType,
  SearchHitView,
  SettingsView,
  TeamStatus,
  UndoOutcome,
  WorkspaceInfo,
  WorkspaceSummary,
} from '../../../src-shared/types'

/**
 * The shape of the renderer's one store: each feature's slice (features/<area>/slice.ts) implements
 * its part. The shapes live here, apart from the slices, so a slice can reach another's actions
 * through `get()` without features importing each other.
 */

export type View =
  | 'memories'
  | 'index'
  | 'prompt'
  | 'recall'
  | 'activity'
  | 'history'
  | 'inbox'
  | 'health'
  | 'team'
  | 'settings'

/** What the store's slices are given: the API (a fake one in tests) and where to keep UI choices. */
export interface StoreDeps {
  client: MemdirClient
  storage: Pick<Storage, 'getItem' | 'setItem'>
  /** Closes the window (Electron's "Save" in its close dialog); a no-op in tests. */
  closeWindow: () => void
}

export interface Draft extends MemoryInput {
  fileName: string
  scope: Exclude<MemoryScope, 'agent'>
}

export interface WorkspaceSlice {
  workspace?: WorkspaceInfo
  workspaces: WorkspaceSummary[]
  view: View
  setView: (v: View) => void
  loadWorkspaces: () => Promise<void>
  /** Opens a project, asking first when the editor has unsaved edits. */
  openWorkspace: (projectRoot: string) => Promise<void>
  openWorkspaceNow: (projectRoot: string) => Promise<void>
  /** Names the project folder of a listed memory dir that no transcript tells, then opens it. */
  linkWorkspace: (memoryDir: string, projectRoot: string) => Promise<void>
  /**
   * The main process switched workspace (or reopened it): its info and settings come with it.
   * `fromOpen`: this window opened it (and shows it itself); else another window did.
   */
  workspaceChanged: (info: WorkspaceInfo, opts?: { fromOpen?: boolean }) => Promise<void>
  /** Opens the project that unsaved edits were left behind in, the edits kept, to save them there. */
  reopenLeftBehind: () => Promise<void>
}

export interface MemorySlice {
  memories: MemoryListItem[]
  loaded: boolean
  /** `memories` holds only the first screen's newest ones; the whole list is on its way. */
  listPartial: boolean
  query: string
  /** Full-text hits for the query, ranked (undefined while there is no query). */
  searchHits?: SearchHitView[]
  /** The query the current hits answer (they lag the typed query by one round trip). */
  searchedFor?: string
  typeFilter: MemoryType | 'all'
  scopeFilter: MemoryScope | 'all'
  setQuery: (q: string) => void
  setTypeFilter: (t: MemoryType | 'all') => void
  setScopeFilter: (s: MemoryScope | 'all') => void
  clearFilters: () => void
  refreshMemories: () => Promise<void>
  /** The first screen's newest memories, then the whole list (the window's first load). */
  loadFirstMemories: () => Promise<void>
  /** The memory list pane folded away (narrow windows); remembered. */
  listCollapsed: boolean
  toggleList: () => void
}

export interface EditorSlice {
  selected?: string
  doc?: MemoryDoc
  draft?: Draft
  isNew: boolean
  dirty: boolean
  /** A change event for the open file arrived while a save was in flight: reload after it. */
  changedDuringSave: boolean
  saving: boolean
  conflict?: ConflictDetails
  /** The last save would have put a detected secret into a private memory: save again to accept. */
  secretWarning?: string
  editorError?: string
  /** Moves detail out of MEMORY.md (Health's fix) so the lines past the cut come back into view. */
  compactIndex: () => Promise<void>
  /** When the last save went through (the editor shows "Saved"). */
  savedAt?: number
  /** Bumped by "New memory" (Ctrl+N): the editor focuses Name. */
  focusNameAt?: number
  select: (relPath: string) => Promise<void>
  /** Shows a file named elsewhere (Health, History, Activity, Recall): MEMORY.md in its view, a memory in the editor. */
  openFile: (relPath: string) => void
  /** Opens the memory a link in the open memory leads to: a `[[wikilink]]` (by file or name) or a relative Markdown link. */
  openLink: (link: { target: string; wiki: boolean }) => Promise<void>
  /** Opens a memory in the editor without asking; a read of another memory still on its way is dropped. */
  loadDoc: (relPath: string) => Promise<void>
  newMemory: () => void
  /** Unsaved edits and something would drop them: the user picks Save, Discard or Cancel. */
  leaveGuard?: { proceed: () => void | Promise<void>; cancel?: () => void }
  /** Runs `proceed` now, or once the user chose Save or Discard for the unsaved edits (`cancel` on Cancel). */
  guardUnsaved: (proceed: () => void | Promise<void>, cancel?: () => void) => void
  resolveLeave: (choice: 'save' | 'discard' | 'cancel') => Promise<void>
  editDraft: (patch: Partial<Draft>) => void
  save: (opts?: { overwrite?: boolean; acceptSecret?: boolean }) => Promise<void>
  takeTheirs: () => Promise<void>
  /** Saves `body` (the user's merge of both versions) over the version on disk. */
  saveMerged: (body: string) => Promise<void>
  remove: () => Promise<void>
  closeEditor: () => void
  /** Empties the editor without asking (another workspace was opened); a read on its way is dropped. */
  clearEditor: () => void
  /** Files changed on disk: the open one reloads unless it has unsaved edits. */
  filesChanged: (paths: string[]) => void
  /**
   * Another window opened another project while this one had unsaved edits: they belong to this
   * project (`projectRoot`, shown as `label`), and are saved only once it is open again.
   */
  leftBehind?: { projectRoot: string; memoryDir: string; label: string }
  /**
   * The open workspace went from `was` to `now`: a clean editor empties, unsaved edits stay as left
   * behind (and are the editor's again once their project is open again).
   */
  workspaceMoved: (was: WorkspaceInfo, now: WorkspaceInfo) => void
  /** Electron's close dialog chose Save: save, then close the window if that went through. */
  saveAndClose: () => Promise<void>
}

export interface ActivitySlice {
  activity: ActivityItem[]
  toasts: ActivityItem[]
  dismissToast: (id: string) => void
  /** Activity entries up to this time were seen (the error badge counts only later ones). */
  activitySeenAt: number
  markActivitySeen: () => void
  /** A new (or repeated) activity entry: into the feed, and shown as a toast for a while. */
  activityAdded: (item: ActivityItem) => void
  runDream: () => Promise<DreamRunResult>
}

export interface HistorySlice {
  /** History view filter: one memory's timeline, or the whole workspace. */
  historyPath?: string
  showHistory: (path?: string) => void
  restoreVersion: (path: string, id: number) => Promise<void>
  /** Puts every file a run changed back; resolves with the files. */
  undoRun: (runId: string) => Promise<UndoOutcome>
}

export interface InboxSlice {
  reviewCount: number
  refreshReviews: () => Promise<void>
  approve: (id: string, edits?: Record<string, string | null>) => Promise<void>
  reject: (id: string) => Promise<void>
}

export interface HealthSlice {
  /** The last health check of the workspace (core/health): the Health view and the list's badges. */
  health?: HealthView
  refreshHealth: () => Promise<void>
  checkContradictions: () => Promise<void>
  fixFinding: (id: string, fix: Exclude<HealthFixKind, 'open'>) => Promise<HealthFixResult>
  fixAll: (kind: string, fix: BatchFix) => Promise<HealthFixAllResult>
}

export interface TeamSlice {
  team?: TeamStatus
  teamChanged: (status: TeamStatus) => void
  syncNow: () => Promise<void>
  saveTeamServer: (input: { teamUrl: string; teamRepo: string; teamToken?: string }) => Promise<void>
  /** Applied at once: the workspace reopens with team memory on or off. */
  setTeamEnabled: (on: boolean) => Promise<void>
}

export interface SettingsSlice {
  settings?: SettingsView
  settingsChanged: (settings: SettingsView) => void
  saveSettings: (input: SettingsInput) => Promise<void>
  planHooks: (scope: HookStatusView['scope'], action: 'install' | 'uninstall') => Promise<HookPlanView>
  applyHooks: (plan: HookPlanView) => Promise<{ backup?: string }>
}

/** How many times each kind of event has arrived: `useRpc` re-fetches when one it depends on moves. */
export interface EventsSlice {
  eventCounts: Partial<Record<MemdirEvent['type'], number>>
  eventSeen: (type: MemdirEvent['type']) => void
}

export type Store = WorkspaceSlice &
  MemorySlice &
  EditorSlice &
  ActivitySlice &
  HistorySlice &
  InboxSlice &
  HealthSlice &
  TeamSlice &
  SettingsSlice &
  EventsSlice
