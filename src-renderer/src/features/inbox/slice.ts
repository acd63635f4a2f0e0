import type { StateCreator } from 'zustand'
import type { InboxSlice, Store, StoreDeps } from '../../app/state'
import { inOrder } from '../../lib/in-order'

export const createInboxSlice =
  ({ client }: StoreDeps): StateCreator<Store, [], [], InboxSlice> =>
  (set, get) => {
    const counted = inOrder()
    const decided = async () => {
      await Promise.all([get().refreshReviews(), get().refreshMemories()])
    }
    return {
      reviewCount: 0,
      refreshReviews: () => counted(client['review/list'](), (list) => set({ reviewCount: list.length })),
      approve: async (id, edits) => {
        await client['review/approve']({ id, edits })
        await decided()
      },
      reject: async (id) => {
        await client['review/reject']({ id })
        await decided()
      },
    }
  }
