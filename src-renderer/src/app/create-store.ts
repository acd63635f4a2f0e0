import { create, type StateCreator } from 'zustand'
import { createActivitySlice } from '../features/activity/slice'
import { createEditorSlice } from '../features/editor/slice'
import { createHealthSlice } from '../features/health/slice'
import { createHistorySlice } from '../features/history/slice'
import { createInboxSlice } from '../features/inbox/slice'
import { createMemorySlice } from '../features/memories/slice'
import { createSettingsSlice } from '../features/settings/slice'
import { createTeamSlice } from '../features/team/slice'
import { createWorkspaceSlice } from '../features/workspace/slice'
import type { EventsSlice, Store, StoreDeps } from './state'

const createEventsSlice: StateCreator<Store, [], [], EventsSlice> = (set) => ({
  eventCounts: {},
  eventSeen: (type) =>
    set((s) => ({ eventCounts: { ...s.eventCounts, [type]: (s.eventCounts[type] ?? 0) + 1 } })),
})

/** The renderer's one store, over any client: the app's transport, or a fake one in the slice tests. */
export function createMemdirStore(deps: StoreDeps) {
  return create<Store>()((...a) => ({
    ...createWorkspaceSlice(deps)(...a),
    ...createMemorySlice(deps)(...a),
    ...createEditorSlice(deps)(...a),
    ...createActivitySlice(deps)(...a),
    ...createHistorySlice(deps)(...a),
    ...createInboxSlice(deps)(...a),
    ...createHealthSlice(deps)(...a),
    ...createTeamSlice(deps)(...a),
    ...createSettingsSlice(deps)(...a),
    ...createEventsSlice(...a),
  }))
}
