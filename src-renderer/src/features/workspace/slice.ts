import type { StateCreator } from 'zustand'
import type { WorkspaceInfo } from '../../../../src-shared/types'
import type { Store, StoreDeps, WorkspaceSlice } from '../../app/state'
import { pickerCounts } from '../memories/slice'

export const createWorkspaceSlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], WorkspaceSlice> =>
  (set, get) => {
    const openNow = (root: string) => get().openWorkspaceNow(root)
    /** Counts workspaceChanged calls: only the latest one's answer is shown. */
    let changes = 0
    /**
     * The workspace the latest workspaceChanged was told of: `workspace` is set only once its
     * answers are in, and a second change meanwhile (this window's open, then the main process's
     * event of it) must be measured against the first, not against the project before both.
     */
    let latest: WorkspaceInfo | undefined
    /** Everything but the editor, for the workspace now open: its list, picker, team status and inbox. */
    const showWorkspace = async () => {
      const [workspaces, team] = await Promise.all([client['workspace/list'](), client['team/status']()])
      set({ workspaces, team, health: undefined })
      await Promise.all([get().refreshMemories(), get().refreshReviews()])
      void get().refreshHealth()
    }
    /** A workspace was opened (or switched to) from this window: fresh editor, list, team status and feed. */
    const afterOpen = async (workspace: WorkspaceInfo) => {
      get().clearEditor()
      await get().workspaceChanged(workspace, { fromOpen: true })
      await showWorkspace()
    }
    return {
      workspaces: [],
      view: 'memories',
      setView: (view) => set({ view }),
      // Everything the first screen needs, in one round of parallel calls, each shown as it arrives:
      // the list does not wait for the picker's counts. Health is left to the caller: its first
      // check of a big workspace is slow.
      loadWorkspaces: async () => {
        await Promise.all([
          client['workspace/current']().then((workspace) => set({ workspace })),
          client['workspace/list']().then((workspaces) =>
            set({ workspaces: pickerCounts({ ...get(), workspaces }) }),
          ),
          client['activity/list']().then((activity) => set({ activity })),
          client['team/status']().then((team) => set({ team })),
          client['settings/get']().then((settings) => set({ settings })),
          get().loadFirstMemories(),
          get().refreshReviews(),
        ])
        // The picker counts what the list shows, also when the workspace itself answered last.
        set({ workspaces: pickerCounts(get()) })
      },
      openWorkspace: (projectRoot) =>
        new Promise<void>((resolve, reject) =>
          get().guardUnsaved(
            () => openNow(projectRoot).then(resolve, reject),
            () => resolve(),
          ),
        ),
      openWorkspaceNow: async (projectRoot) => afterOpen(await client['workspace/open']({ projectRoot })),
      linkWorkspace: (memoryDir, projectRoot) =>
        new Promise<void>((resolve, reject) =>
          get().guardUnsaved(
            () => client['workspace/link']({ memoryDir, projectRoot }).then(afterOpen).then(resolve, reject),
            () => resolve(),
          ),
        ),
      workspaceChanged: async (info, opts = {}) => {
        // Another project is open now (this window's choice, or another window's): the editor's
        // memory was the last one's. Its unsaved edits stay, left behind, never saved into this one.
        const was = latest ?? get().workspace
        latest = info
        const moved = was !== undefined && was.memoryDir !== info.memoryDir
        if (moved) {
          get().workspaceMoved(was, info)
          get().setQuery('') // a search of the last project's still on its way is dropped too
          set({ historyPath: undefined }) // that project's file: its timeline is not this one's
        }
        // With its settings, in one update: a project's team server and repo are its own, and a view
        // keyed by the workspace must never start from the previous project's values. An earlier
        // change whose answers arrive late (the event of the project opened before) is dropped:
        // it would show that project's memory dir while this one is open.
        const mine = ++changes
        const [settings, activity] = await Promise.all([client['settings/get'](), client['activity/list']()])
        if (mine !== changes) return
        set({ workspace: info, settings, activity })
        if (moved && !opts.fromOpen) await showWorkspace()
      },
      reopenLeftBehind: async () => {
        const left = get().leftBehind
        if (!left) return
        // The edits stay in the editor (workspaceMoved makes them this project's again), to be saved here.
        const info = await client['workspace/open']({ projectRoot: left.projectRoot })
        await get().workspaceChanged(info, { fromOpen: true })
        await showWorkspace()
      },
    }
  }
