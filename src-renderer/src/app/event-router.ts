import type { StoreApi } from 'zustand'
import type { MemdirEvent } from '../../../src-shared/api'
import type { Store } from './state'

/** After a burst of file changes, health is checked once more (only the changed memories are re-read). */
const HEALTH_SETTLE_MS = 400

/**
 * The one place events from the main process become store actions. Every event is also counted, so
 * `useRpc` re-fetches the views' data an event makes stale.
 */
export function createEventRouter(store: StoreApi<Store>): (e: MemdirEvent) => void {
  let healthTimer: ReturnType<typeof setTimeout> | undefined
  return (e) => {
    const s = store.getState()
    switch (e.type) {
      case 'memories/changed':
        void s.refreshMemories()
        clearTimeout(healthTimer)
        healthTimer = setTimeout(() => void store.getState().refreshHealth(), HEALTH_SETTLE_MS)
        s.filesChanged(e.paths)
        break
      case 'activity':
        s.activityAdded(e.item)
        break
      case 'team/status':
        s.teamChanged(e.status)
        break
      case 'settings/changed':
        s.settingsChanged(e.settings)
        break
      case 'workspace/changed':
        void s.workspaceChanged(e.info)
        break
      case 'review/changed':
        void s.refreshReviews()
        break
      case 'app/saveAndClose':
        void s.saveAndClose()
        break
    }
    s.eventSeen(e.type)
  }
}
