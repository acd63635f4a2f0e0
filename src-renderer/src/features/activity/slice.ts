import type { StateCreator } from 'zustand'
import type { ActivitySlice, Store, StoreDeps } from '../../app/state'

const SEEN_KEY = 'memdir.activitySeenAt'
/** How long a toast stays up. */
export const TOAST_MS = 6000

export const createActivitySlice =
  ({ client, storage }: StoreDeps): StateCreator<Store, [], [], ActivitySlice> =>
  (set, get) => ({
    activity: [],
    toasts: [],
    dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
    activitySeenAt: Number(storage.getItem(SEEN_KEY) ?? 0),
    markActivitySeen: () => {
      const at = Date.now()
      storage.setItem(SEEN_KEY, String(at))
      set({ activitySeenAt: at })
    },
    activityAdded: (item) => {
      // A repeated entry comes back under its id with a new count: replace it in place.
      set((s) => ({
        activity: s.activity.some((a) => a.id === item.id)
          ? s.activity.map((a) => (a.id === item.id ? item : a))
          : [...s.activity, item],
        toasts: [...s.toasts.filter((t) => t.id !== item.id), item].slice(-4),
      }))
      if (get().view === 'activity') get().markActivitySeen()
      setTimeout(() => get().dismissToast(item.id), TOAST_MS)
    },
    runDream: () => client['dream/run']({ force: true }),
  })
