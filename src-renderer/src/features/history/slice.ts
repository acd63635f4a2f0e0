import type { StateCreator } from 'zustand'
import type { HistorySlice, Store, StoreDeps } from '../../app/state'

export const createHistorySlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], HistorySlice> =>
  (set) => ({
    showHistory: (historyPath) => set({ historyPath, view: 'history' }),
    // The files change on disk: the watcher's event refreshes the list, history and health.
    restoreVersion: (path, id) => client['history/restore']({ path, id }),
    undoRun: (runId) => client['history/undoRun']({ runId }),
  })
