import type { StateCreator } from 'zustand'
import type { Store, StoreDeps, TeamSlice } from '../../app/state'

export const createTeamSlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], TeamSlice> =>
  (set, get) => ({
    teamChanged: (team) => {
      // A newer sync: toasts of earlier ones would contradict the Team view's last-sync panel.
      const at = team.lastSync?.at
      const newer = at !== undefined && at !== get().team?.lastSync?.at
      set((s) => ({
        team,
        toasts: newer ? s.toasts.filter((t) => t.kind !== 'sync' || t.at >= at) : s.toasts,
      }))
    },
    syncNow: async () => get().teamChanged(await client['team/syncNow']()),
    saveTeamServer: async (input) => {
      const settings = await client['settings/set'](input)
      set({ settings, team: await client['team/status']() })
    },
    setTeamEnabled: async (on) => {
      const settings = await client['settings/set']({ teamMemoryEnabled: on })
      const [team, workspace] = await Promise.all([client['team/status'](), client['workspace/current']()])
      set({ settings, team, workspace })
    },
  })
