import type { StateCreator } from 'zustand'
import type { SettingsSlice, Store, StoreDeps } from '../../app/state'

export const createSettingsSlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], SettingsSlice> =>
  (set) => ({
    settingsChanged: (settings) => set({ settings }),
    saveSettings: async (input) => {
      const settings = await client['settings/set'](input)
      set({ settings, workspace: await client['workspace/current']() })
    },
    planHooks: (scope, action) => client['integrations/planHooks']({ scope, action }),
    applyHooks: (plan) =>
      client['integrations/applyHooks']({
        scope: plan.scope,
        action: plan.action,
        beforeHash: plan.beforeHash,
      }),
  })
