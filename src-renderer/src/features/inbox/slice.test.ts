import { describe, expect, it } from 'vitest'
import type { ProposalView } from '../../../../src-shared/types'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { listItem } from '../../test/samples'

describe('inbox slice', () => {
  it('approving a proposal with an edit writes it, and the count and the list follow', async () => {
    const pending = new Set(['p1', 'p2'])
    const written: string[] = []
    const { client, calls } = fakeClient({
      'review/list': async () => [...pending].map((id) => ({ id }) as ProposalView),
      'review/approve': async ({ id }) => {
        pending.delete(id)
        written.push('new.md')
      },
      'review/reject': async ({ id }) => void pending.delete(id),
      'memory/list': async () => written.map((f) => listItem(f)),
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().refreshReviews()
    expect(store.getState().reviewCount).toBe(2)
    await store.getState().approve('p1', { 'new.md': 'edited before approving' })
    expect(calls.find((c) => c.method === 'review/approve')?.args).toEqual({
      id: 'p1',
      edits: { 'new.md': 'edited before approving' },
    })
    expect(store.getState().reviewCount).toBe(1)
    expect(store.getState().memories.map((m) => m.relPath)).toEqual(['new.md'])
    await store.getState().reject('p2')
    expect(store.getState().reviewCount).toBe(0)
  })
})
