import type { StateCreator } from 'zustand'
import type { WorkspaceInfo, WorkspaceSummary } from '../../../../src-shared/types'
import type { Store, StoreDeps, WorkspaceSlice } from '../../app/state'

export const createWorkspaceSlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], WorkspaceSlice> =>
  (set, get) => {
    const openNow = (root: string) => get().openWorkspaceNow(root)
    /** A workspace was opened (or switched to): fresh editor, list, team status and feed. */
    const afterOpen = async (workspace: WorkspaceInfo) => {
      // Its settings come with it: a project's team server and repo are its own, and a view keyed by
      // the workspace must never start from the previous project's values.
      const settings = await client['settings/get']()
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
        client['workspace/list'](),
        client['team/status'](),
        client['activity/list'](),
      ])
      set({ workspaces, team, activity, health: undefined })
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
        const counted = (workspaces: WorkspaceSummary[]) => {
          // The picker counts what the list shows.
          const { workspace, memories, loaded } = get()
          return loaded && workspace
            ? workspaces.map((w) =>
                w.memoryDir === workspace.memoryDir ? { ...w, memoryCount: memories.length } : w,
              )
            : workspaces
        }
        await Promise.all([
          client['workspace/current']().then((workspace) => set({ workspace })),
          client['workspace/list']().then((workspaces) => set({ workspaces: counted(workspaces) })),
          client['activity/list']().then((activity) => set({ activity })),
          client['team/status']().then((team) => set({ team })),
          client['settings/get']().then((settings) => set({ settings })),
          get().refreshMemories(),
          get().refreshReviews(),
        ])
        set({ workspaces: counted(get().workspaces) })
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
        // With its settings: views keyed by the workspace start from this project's own values.
        const [settings, activity] = await Promise.all([client['settings/get'](), client['activity/list']()])
        set({ workspace: info, settings, activity })
      },
    }
  }
