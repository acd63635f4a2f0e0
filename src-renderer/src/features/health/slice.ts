import type { StateCreator } from 'zustand'
import { rethrowUnless, RpcFailure } from '../../../../src-shared/errors'
import type { HealthSlice, Store, StoreDeps } from '../../app/state'
import { inOrder } from '../../lib/in-order'

export const createHealthSlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], HealthSlice> =>
  (set, get) => {
    const checked = inOrder()
    const show = (health: Store['health']) => set({ health })
    return {
      refreshHealth: async () => {
        try {
          await checked(client['health/get'](), show)
        } catch (e) {
          // Health is advisory: a failed check leaves the last one (a dead connection shows in the banner).
          rethrowUnless(e instanceof RpcFailure, e)
        }
      },
      checkContradictions: async () => {
        // The model's answer takes long: it counts as asked when it comes, so a plain check asked
        // meanwhile (which may not know the model's verdicts yet) does not hide it.
        const found = await client['health/checkContradictions']()
        await checked(Promise.resolve(found), show)
      },
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
    }
  }
