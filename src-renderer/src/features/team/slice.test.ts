import { describe, expect, it } from 'vitest'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { settings, team, workspace } from '../../test/samples'

describe('team slice', () => {
  it('switching team memory on reopens the workspace with it, and the view shows the new state', async () => {
    let on = false
    const { client, calls } = fakeClient({
      'settings/set': async (input) => {
        on = input.teamMemoryEnabled ?? on
        return settings({ teamMemoryEnabled: on })
      },
      'team/status': async () => team({ state: on ? 'ready' : 'off', enabled: on }),
      'workspace/current': async () => ({ ...workspace('/m/shop'), teamEnabled: on }),
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().setTeamEnabled(true)
    expect(calls[0]).toEqual({ method: 'settings/set', args: { teamMemoryEnabled: true } })
    expect(store.getState().team?.state).toBe('ready')
    expect(store.getState().workspace?.teamEnabled).toBe(true)
    expect(store.getState().settings?.teamMemoryEnabled).toBe(true)
  })

  it('a token is sent only when typed, and the server settings come back as saved', async () => {
    const { client, calls } = fakeClient({
      'settings/set': async (input) => settings({ teamUrl: input.teamUrl, teamRepo: input.teamRepo }),
      'team/status': async () => team({ url: 'https://t.example', repo: 'acme/shop' }),
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().saveTeamServer({ teamUrl: 'https://t.example', teamRepo: 'acme/shop' })
    expect(calls[0]!.args).toEqual({ teamUrl: 'https://t.example', teamRepo: 'acme/shop' })
    expect(store.getState().settings?.teamRepo).toBe('acme/shop')
    expect(store.getState().team?.repo).toBe('acme/shop')
  })
})
