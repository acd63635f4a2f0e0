import type { StateCreator } from 'zustand'
import { rethrowUnless, RpcFailure } from '../../../../src-shared/errors'
import type { HealthSlice, Store, StoreDeps } from '../../app/state'

export const createHealthSlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], HealthSlice> =>
  (set, get) => ({
    refreshHealth: async () => {
      try {
        set({ health: await client['health/get']() })
      } catch (e) {
        // Health is advisory: a failed check leaves the last one (a dead connection shows in the banner).
        rethrowUnless(e instanceof RpcFailure, e)
      }
    },
    checkContradictions: async () => set({ health: await client['health/checkContradictions']() }),
    fixFinding: async (id, fix) => {
      const r = await client['health/fix']({ id, fix })
      if (r.proposalId) await get().refreshReviews()
      await get().refreshHealth()
      return r
    },
    fixAll: async (kind, fix) => {
      const r = await client['health/fixAll']({ kind, fix })
      await get().refreshHealth()
      return r
    },
  })
