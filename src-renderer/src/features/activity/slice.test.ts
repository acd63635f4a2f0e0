import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { activity } from '../../test/samples'
import { TOAST_MS } from './slice'

describe('activity slice', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }))
  afterEach(() => void vi.useRealTimers())

  it('a repeated entry is shown once with its new count, in the feed and as a toast', () => {
    const store = createMemdirStore(memoryDeps(fakeClient({}).client))
    store.getState().activityAdded(activity('sync-1', { title: 'sync failed' }))
    store.getState().activityAdded(activity('other'))
    store.getState().activityAdded(activity('sync-1', { title: 'sync failed', count: 3 }))
    const { activity: feed, toasts } = store.getState()
    expect(feed.map((a) => [a.id, a.count])).toEqual([
      ['sync-1', 3],
      ['other', undefined],
    ])
    // The toast comes back to the top, once.
    expect(toasts.map((t) => t.id)).toEqual(['other', 'sync-1'])
  })

  it('at most four toasts at once, each gone after its time; the feed keeps every entry', async () => {
    const store = createMemdirStore(memoryDeps(fakeClient({}).client))
    for (let i = 1; i <= 6; i++) store.getState().activityAdded(activity(`a${i}`))
    expect(store.getState().toasts.map((t) => t.id)).toEqual(['a3', 'a4', 'a5', 'a6'])
    await vi.advanceTimersByTimeAsync(TOAST_MS - 1)
    expect(store.getState().toasts).toHaveLength(4)
    await vi.advanceTimersByTimeAsync(1)
    expect(store.getState().toasts).toEqual([])
    expect(store.getState().activity).toHaveLength(6)
  })

  it('entries that arrive while Activity is open count as seen, and what was seen survives a restart', () => {
    const deps = memoryDeps(fakeClient({}).client)
    const store = createMemdirStore(deps)
    vi.setSystemTime(5000)
    store.getState().activityAdded(activity('unseen', { level: 'error' }))
    expect(store.getState().activitySeenAt).toBe(0)
    store.getState().setView('activity')
    vi.setSystemTime(7000)
    store.getState().activityAdded(activity('seen', { level: 'error' }))
    expect(store.getState().activitySeenAt).toBe(7000)
    // A new window (the same storage) starts from what this one saw.
    expect(createMemdirStore(deps).getState().activitySeenAt).toBe(7000)
  })

  it('"Dream now" asks for a run even before its usual time', async () => {
    const { client, calls } = fakeClient({
      'dream/run': async () => ({ outcome: 'improved', message: '2 files' }),
    })
    const store = createMemdirStore(memoryDeps(client))
    expect(await store.getState().runDream()).toEqual({ outcome: 'improved', message: '2 files' })
    expect(calls).toEqual([{ method: 'dream/run', args: { force: true } }])
  })
})
