import { describe, expect, it } from 'vitest'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'

describe('history slice', () => {
  it('shows one memory’s timeline, then the whole workspace’s', () => {
    const store = createMemdirStore(memoryDeps(fakeClient({}).client))
    store.getState().showHistory('team/deploy.md')
    expect(store.getState()).toMatchObject({ view: 'history', historyPath: 'team/deploy.md' })
    store.getState().showHistory()
    expect(store.getState().view).toBe('history')
    expect(store.getState().historyPath).toBeUndefined()
  })

  it('restore and undo go to the main process as asked, and undo reports what it kept', async () => {
    const { client, calls } = fakeClient({
      'history/restore': async () => undefined,
      'history/undoRun': async () => ({
        undone: ['a.md'],
        kept: [{ path: 'b.md', reason: 'changed since the run' }],
      }),
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().restoreVersion('a.md', 4)
    const outcome = await store.getState().undoRun('run-7')
    expect(calls).toEqual([
      { method: 'history/restore', args: { path: 'a.md', id: 4 } },
      { method: 'history/undoRun', args: { runId: 'run-7' } },
    ])
    expect(outcome.kept).toEqual([{ path: 'b.md', reason: 'changed since the run' }])
  })

  it('a version number the contract refuses (0) never reaches the main process', async () => {
    const { client, calls } = fakeClient({ 'history/restore': async () => undefined })
    const store = createMemdirStore(memoryDeps(client))
    await expect(store.getState().restoreVersion('a.md', 0)).rejects.toThrow()
    expect(calls).toEqual([])
  })
})
