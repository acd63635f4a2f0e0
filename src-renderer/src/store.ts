import { create, type StateCreator } from 'zustand'
import type { MemdirEvent } from '../../src-shared/api'
import type { MemoryInput } from '../../src-shared/contract'
import { rethrowUnless, RpcFailure } from '../../src-shared/errors'
import type {
  ActivityItem,
  ConflictDetails,
  HealthView,
  MemoryDoc,
  MemoryListItem,
  MemoryScope,
  MemoryType,
  SearchHitView,
  SettingsView,
  TeamStatus,
  WorkspaceInfo,
  WorkspaceSummary,
} from '../../src-shared/types'
import { errorMessage, getClient } from './transport/client'

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

export interface Draft extends MemoryInput {
  fileName: string
  scope: Exclude<MemoryScope, 'agent'>
}

interface WorkspaceSlice {
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
}

interface MemorySlice {
  memories: MemoryListItem[]
  loaded: boolean
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
  /** The memory list pane folded away (narrow windows); remembered. */
  listCollapsed: boolean
  toggleList: () => void
}

interface EditorSlice {
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
  /** Opens the memory whose name (or file name) is `name` — a [[name]] link. */
  openByName: (name: string) => Promise<void>
  /** Loads a memory into the editor without asking (reloads after an external change). */
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
}

interface FeedSlice {
  /** History view filter: one memory's timeline, or the whole workspace. */
  historyPath?: string
  showHistory: (path?: string) => void
  reviewCount: number
  refreshReviews: () => Promise<void>
  activity: ActivityItem[]
  toasts: ActivityItem[]
  team?: TeamStatus
  settings?: SettingsView
  dismissToast: (id: string) => void
  /** Activity entries up to this time were seen (the error badge counts only later ones). */
  activitySeenAt: number
  markActivitySeen: () => void
  /** The last health check of the workspace (core/health): the Health view and the list's badges. */
  health?: HealthView
  refreshHealth: () => Promise<void>
  handleEvent: (e: MemdirEvent) => void
}

export type Store = WorkspaceSlice & MemorySlice & EditorSlice & FeedSlice

const api = () => getClient()

const createWorkspaceSlice: StateCreator<Store, [], [], WorkspaceSlice> = (set, get) => {
  const openNow = (root: string) => get().openWorkspaceNow(root)
  /** A workspace was opened (or switched to): fresh editor, list, team status and feed. */
  const afterOpen = async (workspace: WorkspaceInfo) => {
    // Its settings come with it: a project's team server and repo are its own, and a view keyed by
    // the workspace must never start from the previous project's values.
    const settings = await api()['settings/get']()
    set({
      workspace,
      settings,
      selected: undefined,
      doc: undefined,
      draft: undefined,
      conflict: undefined,
      dirty: false,
      query: '',
      searchHits: undefined,
      searchedFor: undefined,
    })
    const [workspaces, team, activity] = await Promise.all([
      api()['workspace/list'](),
      api()['team/status'](),
      api()['activity/list'](),
    ])
    set({ workspaces, team, activity, health: undefined })
    await Promise.all([get().refreshMemories(), get().refreshReviews()])
    void get().refreshHealth()
  }
  return {
    workspaces: [],
    view: 'memories',
    setView: (view) => set({ view }),
    loadWorkspaces: async () => {
      const [workspace, workspaces, activity, team, settings] = await Promise.all([
        api()['workspace/current'](),
        api()['workspace/list'](),
        api()['activity/list'](),
        api()['team/status'](),
        api()['settings/get'](),
      ])
      set({ workspace, workspaces, activity, team, settings })
      await Promise.all([get().refreshMemories(), get().refreshReviews()])
      void get().refreshHealth()
    },
    openWorkspace: (projectRoot) =>
      new Promise<void>((resolve, reject) =>
        get().guardUnsaved(
          () => openNow(projectRoot).then(resolve, reject),
          () => resolve(),
        ),
      ),
    openWorkspaceNow: async (projectRoot) => afterOpen(await api()['workspace/open']({ projectRoot })),
    linkWorkspace: (memoryDir, projectRoot) =>
      new Promise<void>((resolve, reject) =>
        get().guardUnsaved(
          () => api()['workspace/link']({ memoryDir, projectRoot }).then(afterOpen).then(resolve, reject),
          () => resolve(),
        ),
      ),
  }
}

const LIST_KEY = 'memdir.listCollapsed'

const createMemorySlice: StateCreator<Store, [], [], MemorySlice> = (set, get) => {
  let searchSeq = 0
  const runSearch = async (query: string) => {
    const seq = ++searchSeq
    if (!query.trim()) return set({ searchHits: undefined, searchedFor: undefined })
    try {
      const hits = await api()['memory/search']({ query })
      if (seq === searchSeq) set({ searchHits: hits, searchedFor: query })
    } catch (e) {
      // The list keeps the last results; a dead connection shows in the banner.
      rethrowUnless(e instanceof RpcFailure, e)
    }
  }
  return {
    memories: [],
    loaded: false,
    query: '',
    typeFilter: 'all',
    scopeFilter: 'all',
    setQuery: (query) => {
      set({ query })
      void runSearch(query)
    },
    setTypeFilter: (typeFilter) => set({ typeFilter }),
    setScopeFilter: (scopeFilter) => set({ scopeFilter }),
    clearFilters: () => {
      set({ query: '', searchHits: undefined, searchedFor: undefined, typeFilter: 'all', scopeFilter: 'all' })
      searchSeq++
    },
    refreshMemories: async () => {
      const memories = await api()['memory/list']()
      // The picker counts what the list shows: the open workspace's count follows every refresh.
      const dir = get().workspace?.memoryDir
      const workspaces = get().workspaces.map((w) =>
        w.memoryDir === dir ? { ...w, memoryCount: memories.length } : w,
      )
      set({ memories, loaded: true, workspaces })
      if (get().query.trim()) void runSearch(get().query)
    },
    listCollapsed: localStorage.getItem(LIST_KEY) === '1',
    toggleList: () =>
      set((s) => {
        localStorage.setItem(LIST_KEY, s.listCollapsed ? '0' : '1')
        return { listCollapsed: !s.listCollapsed }
      }),
  }
}

function draftOf(doc: MemoryDoc): Draft {
  return {
    name: doc.name,
    description: doc.description ?? '',
    type: doc.type,
    body: doc.body,
    fileName: doc.relPath,
    scope: doc.scope === 'team' ? 'team' : 'private',
  }
}

const createEditorSlice: StateCreator<Store, [], [], EditorSlice> = (set, get) => ({
  isNew: false,
  dirty: false,
  changedDuringSave: false,
  saving: false,
  guardUnsaved: (proceed, cancel) => {
    if (get().dirty) set({ leaveGuard: { proceed, cancel } })
    else void proceed()
  },
  resolveLeave: async (choice) => {
    const guard = get().leaveGuard
    set({ leaveGuard: undefined })
    if (!guard) return
    if (choice === 'cancel') return guard.cancel?.()
    if (choice === 'save') {
      await get().save()
      // The save did not go through (conflict, secret warning, error): stay, with the edits.
      if (get().dirty) return guard.cancel?.()
    } else set({ dirty: false })
    await guard.proceed()
  },
  select: async (relPath) => {
    if (relPath === get().doc?.relPath && !get().isNew) return
    get().guardUnsaved(() => get().loadDoc(relPath))
  },
  openByName: async (name) => {
    const n = name.trim().toLowerCase()
    const slug = n.replace(/\s+/g, '-')
    const hit = get().memories.find((m) => {
      const file = m.relPath.split('/').pop()!.replace(/\.md$/, '').toLowerCase()
      return m.name.toLowerCase() === n || file === n || file === slug || file === n.replace(/\s+/g, '_')
    })
    if (hit) await get().select(hit.relPath)
    else set({ editorError: `No memory named “${name}” in this workspace.` })
  },
  loadDoc: async (relPath) => {
    try {
      const doc = await api()['memory/read']({ relPath })
      set({
        selected: relPath,
        doc,
        draft: draftOf(doc),
        isNew: false,
        dirty: false,
        conflict: undefined,
        editorError: undefined,
      })
    } catch (e) {
      set({ editorError: errorMessage(e) })
    }
  },
  newMemory: () =>
    get().guardUnsaved(() =>
      set({
        selected: undefined,
        doc: undefined,
        isNew: true,
        dirty: false,
        conflict: undefined,
        editorError: undefined,
        view: 'memories',
        focusNameAt: Date.now(),
        draft: { name: '', description: '', type: 'project', body: '', fileName: '', scope: 'private' },
      }),
    ),
  editDraft: (patch) =>
    set((s) => ({
      draft: s.draft ? { ...s.draft, ...patch } : s.draft,
      dirty: true,
      secretWarning: undefined,
    })),
  compactIndex: async () => {
    try {
      const cut = (await api()['health/get']()).findings.find((f) => f.fixes.includes('compact-index'))
      if (cut) await api()['health/fix']({ id: cut.id, fix: 'compact-index' })
      // The memory itself is unchanged: only whether its index line is in view.
      const relPath = get().doc?.relPath
      if (relPath) set({ doc: await api()['memory/read']({ relPath }), editorError: undefined })
    } catch (e) {
      set({ editorError: errorMessage(e) })
    }
  },
  save: async (opts = {}) => {
    const { draft, doc, isNew, conflict } = get()
    if (!draft) return
    const input: MemoryInput = {
      name: draft.name,
      description: draft.description,
      type: draft.type,
      body: draft.body,
    }
    try {
      let saved: MemoryDoc
      if (isNew) {
        saved = await api()['memory/create']({
          input,
          scope: draft.scope,
          fileName: draft.fileName || undefined,
          acceptSecretWarning: opts.acceptSecret,
        })
      } else {
        const expectedHash = opts.overwrite && conflict?.currentHash ? conflict.currentHash : doc!.hash
        saved = await api()['memory/update']({
          relPath: doc!.relPath,
          input,
          expectedHash,
          acceptSecretWarning: opts.acceptSecret,
        })
        if (draft.fileName && draft.fileName !== doc!.relPath) {
          saved = await api()['memory/rename']({ from: doc!.relPath, to: draft.fileName })
        }
      }
      set({
        doc: saved,
        selected: saved.relPath,
        draft: draftOf(saved),
        isNew: false,
        dirty: false,
        conflict: undefined,
        secretWarning: undefined,
        editorError: undefined,
        savedAt: Date.now(),
      })
      await get().refreshMemories()
    } catch (e) {
      if (e instanceof RpcFailure && e.error.code === 'SECRET_IN_MEMORY') {
        set({ secretWarning: e.message, editorError: undefined })
      } else if (e instanceof RpcFailure && e.error.code === 'CONFLICT') {
        const d = e.error.details as Omit<ConflictDetails, 'relPath'>
        set({ conflict: { relPath: doc?.relPath ?? draft.fileName, ...d }, editorError: e.message })
      } else set({ editorError: errorMessage(e) })
    } finally {
      set({ saving: false })
    }
  },
  saveMerged: async (body) => {
    set((s) => ({ draft: s.draft ? { ...s.draft, body } : s.draft, dirty: true }))
    await get().save({ overwrite: true })
  },
  takeTheirs: async () => {
    const rel = get().doc?.relPath
    set({ conflict: undefined, dirty: false })
    if (rel) await get().loadDoc(rel)
  },
  remove: async () => {
    const { doc } = get()
    if (!doc) return
    try {
      await api()['memory/delete']({ relPath: doc.relPath, expectedHash: doc.hash })
      set({ selected: undefined, doc: undefined, draft: undefined, dirty: false, isNew: false })
      await get().refreshMemories()
    } catch (e) {
      set({ editorError: errorMessage(e) })
    }
  },
  closeEditor: () =>
    get().guardUnsaved(() =>
      set({
        selected: undefined,
        doc: undefined,
        draft: undefined,
        isNew: false,
        dirty: false,
        conflict: undefined,
      }),
    ),
})

let healthTimer: ReturnType<typeof setTimeout> | undefined

const createFeedSlice: StateCreator<Store, [], [], FeedSlice> = (set, get) => ({
  refreshHealth: async () => {
    try {
      set({ health: await api()['health/get']() })
    } catch (e) {
      // Health is advisory: a failed check leaves the last one (a dead connection shows in the banner).
      rethrowUnless(e instanceof RpcFailure, e)
    }
  },
  showHistory: (historyPath) => set({ historyPath, view: 'history' }),
  reviewCount: 0,
  refreshReviews: async () => set({ reviewCount: (await api()['review/list']()).length }),
  activity: [],
  toasts: [],
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  activitySeenAt: Number(localStorage.getItem('memdir.activitySeenAt') ?? 0),
  markActivitySeen: () => {
    const at = Date.now()
    localStorage.setItem('memdir.activitySeenAt', String(at))
    set({ activitySeenAt: at })
  },
  handleEvent: (e) => {
    if (e.type === 'memories/changed') {
      void get().refreshMemories()
      // Re-check once the burst of changes is over (only the changed memories are re-read).
      clearTimeout(healthTimer)
      healthTimer = setTimeout(() => void get().refreshHealth(), 400)
      const { doc, dirty, saving } = get()
      // An external change to the open file: reload it unless the user has unsaved edits.
      if (doc && e.paths.includes(doc.relPath)) {
        if (saving) set({ changedDuringSave: true })
        else if (!dirty) void get().loadDoc(doc.relPath)
      }
    } else if (e.type === 'activity') {
      // A repeated entry comes back under its id with a new count: replace it in place.
      set((s) => ({
        activity: s.activity.some((a) => a.id === e.item.id)
          ? s.activity.map((a) => (a.id === e.item.id ? e.item : a))
          : [...s.activity, e.item],
        toasts: [...s.toasts.filter((t) => t.id !== e.item.id), e.item].slice(-4),
      }))
      if (get().view === 'activity') get().markActivitySeen()
      setTimeout(() => get().dismissToast(e.item.id), 6000)
    } else if (e.type === 'team/status') {
      // A newer sync: toasts of earlier ones would contradict the Team view's last-sync panel.
      const at = e.status.lastSync?.at
      const newer = at !== undefined && at !== get().team?.lastSync?.at
      set((s) => ({
        team: e.status,
        toasts: newer ? s.toasts.filter((t) => t.kind !== 'sync' || t.at >= at) : s.toasts,
      }))
    } else if (e.type === 'settings/changed') set({ settings: e.settings })
    else if (e.type === 'workspace/changed') {
      const client = api()
      // With its settings: views keyed by the workspace start from this project's own values.
      void client['settings/get']().then((settings) => set({ workspace: e.info, settings }))
      void client['activity/list']().then((activity) => set({ activity }))
    } else if (e.type === 'review/changed') void get().refreshReviews()
    else if (e.type === 'app/saveAndClose')
      void get()
        .save()
        .then(() => !get().dirty && window.close())
  },
})

export const useStore = create<Store>()((...a) => ({
  ...createWorkspaceSlice(...a),
  ...createMemorySlice(...a),
  ...createEditorSlice(...a),
  ...createFeedSlice(...a),
}))

/**
 * The list as filtered and searched: with a query, the full-text hits in their rank order (the
 * body counts too); until the first hits arrive, a plain match on name, description and path.
 */
export function visibleMemories(
  s: Pick<Store, 'memories' | 'query' | 'typeFilter' | 'scopeFilter' | 'searchHits'>,
): MemoryListItem[] {
  const q = s.query.trim().toLowerCase()
  const kept = (m: MemoryListItem) =>
    (s.typeFilter === 'all' || m.type === s.typeFilter) &&
    (s.scopeFilter === 'all' || m.scope === s.scopeFilter)
  if (q && s.searchHits) {
    const byPath = new Map(s.memories.map((m) => [m.relPath, m]))
    return s.searchHits.map((h) => byPath.get(h.relPath)).filter((m): m is MemoryListItem => !!m && kept(m))
  }
  return s.memories.filter(
    (m) =>
      kept(m) &&
      (!q ||
        m.name.toLowerCase().includes(q) ||
        (m.description ?? '').toLowerCase().includes(q) ||
        m.relPath.toLowerCase().includes(q)),
  )
}
