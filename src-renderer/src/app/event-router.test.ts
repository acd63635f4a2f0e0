import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeClient, memoryDeps } from '../test/fake-client'
import { activity, doc, listItem, settings, team } from '../test/samples'
import { createMemdirStore } from './create-store'
import { createEventRouter } from './event-router'

function world() {
  let health = 0
  const fake = fakeClient({
    'memory/list': async () => [listItem('a.md'), listItem('b.md')],
    'memory/read': async ({ relPath }) => doc(relPath, 'fresh'),
    'health/get': async () => {
      health++
      return { findings: [] } as never
    },
    'review/list': async () => [{ id: 'p1' }, { id: 'p2' }] as never,
  })
  const store = createMemdirStore(memoryDeps(fake.client))
  fake.client.onEvent(createEventRouter(store))
  return { ...fake, store, healthChecks: () => health }
}

describe('event router', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }))
  afterEach(() => void vi.useRealTimers())

  it('a burst of file changes refreshes the list each time and checks health once after it', async () => {
    const w = world()
    for (let i = 0; i < 5; i++) w.emit({ type: 'memories/changed', paths: ['a.md'] })
    await vi.advanceTimersByTimeAsync(1000)
    expect(w.store.getState().memories).toHaveLength(2)
    expect(w.calls.filter((c) => c.method === 'memory/list')).toHaveLength(5)
    expect(w.healthChecks()).toBe(1)
  })

  it('reloads the open memory when it changed on disk', async () => {
    const w = world()
    w.store.setState({ doc: doc('a.md', 'old'), selected: 'a.md' })
    w.emit({ type: 'memories/changed', paths: ['a.md'] })
    await vi.advanceTimersByTimeAsync(0)
    expect(w.store.getState().doc?.body).toBe('fresh')
  })

  it('counts every event so the views reading through useRpc fetch again', () => {
    const w = world()
    w.emit({ type: 'settings/changed', settings: settings({ teamRepo: 'acme/x' }) })
    w.emit({ type: 'settings/changed', settings: settings({ teamRepo: 'acme/y' }) })
    w.emit({ type: 'review/changed' })
    expect(w.store.getState().eventCounts).toEqual({ 'settings/changed': 2, 'review/changed': 1 })
    expect(w.store.getState().settings?.teamRepo).toBe('acme/y')
  })

  it('an activity entry repeated under its id replaces the first, and its toast goes after a while', async () => {
    const w = world()
    w.emit({ type: 'activity', item: activity('x', { title: 'Saved 1' }) })
    w.emit({ type: 'activity', item: activity('x', { title: 'Saved 1', count: 2 }) })
    expect(w.store.getState().activity).toEqual([activity('x', { title: 'Saved 1', count: 2 })])
    expect(w.store.getState().toasts).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(6001)
    expect(w.store.getState().toasts).toHaveLength(0)
    expect(w.store.getState().activity).toHaveLength(1)
  })

  it('a newer sync clears the toasts of earlier syncs, so they never contradict the last-sync panel', () => {
    const w = world()
    w.emit({ type: 'activity', item: activity('s1', { kind: 'sync', at: 100, title: 'pushed 2' }) })
    w.emit({ type: 'activity', item: activity('e1', { kind: 'extraction', at: 100 }) })
    w.emit({
      type: 'team/status',
      status: team({ lastSync: { at: 200, pulled: [], pushed: [], skipped: [], conflicts: [] } }),
    })
    expect(w.store.getState().toasts.map((t) => t.id)).toEqual(['e1'])
  })

  it('keeps the review count current', async () => {
    const w = world()
    w.emit({ type: 'review/changed' })
    await vi.advanceTimersByTimeAsync(0)
    expect(w.store.getState().reviewCount).toBe(2)
  })
})
