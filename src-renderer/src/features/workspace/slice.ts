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
    /** A workspace was opened (or switched to): fresh editor, list, team status and feed. */
    const afterOpen = async (workspace: WorkspaceInfo) => {
      get().clearEditor()
      set({
        query: '',
        searchHits: undefined,
        searchedFor: undefined,
      })
      await get().workspaceChanged(workspace)
      const [workspaces, team] = await Promise.all([client['workspace/list'](), client['team/status']()])
      set({ workspaces, team, health: undefined })
      await Promise.all([get().refreshMemories(), get().refreshReviews()])
      void get().refreshHealth()
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
      workspaceChanged: async (info) => {
        // With its settings, in one update: a project's team server and repo are its own, and a view
        // keyed by the workspace must never start from the previous project's values. An earlier
        // change whose answers arrive late (the event of the project opened before) is dropped:
        // it would show that project's memory dir while this one is open.
        const mine = ++changes
        const [settings, activity] = await Promise.all([client['settings/get'](), client['activity/list']()])
        if (mine !== changes) return
        set({ workspace: info, settings, activity })
      },
    }
  }
