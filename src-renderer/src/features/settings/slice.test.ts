import { describe, expect, it } from 'vitest'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { settings, workspace } from '../../test/samples'

describe('settings slice', () => {
  it('saving sends only what changed and shows the settings and workspace the main process answers with', async () => {
    const { client, calls } = fakeClient({
      'settings/set': async (input) => settings({ reviewMode: input.reviewMode ?? false }),
      'workspace/current': async () => ({ ...workspace('/m/shop'), modelConfigured: true }),
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().saveSettings({ reviewMode: true })
    expect(calls.map((c) => c.method)).toEqual(['settings/set', 'workspace/current'])
    expect(calls[0]!.args).toEqual({ reviewMode: true })
    expect(store.getState().settings?.reviewMode).toBe(true)
    expect(store.getState().workspace?.modelConfigured).toBe(true)
  })

  it('a refused save leaves the settings shown as they were', async () => {
    const { client } = fakeClient({
      'settings/set': async () => {
        throw new Error('team server URL must be https')
      },
    })
    const store = createMemdirStore(memoryDeps(client))
    store.getState().settingsChanged(settings({ teamUrl: 'https://t.example' }))
    await expect(store.getState().saveSettings({ teamUrl: 'http://t.example' })).rejects.toThrow('https')
    expect(store.getState().settings?.teamUrl).toBe('https://t.example')
  })

  it('hooks are planned first, then applied against the file as planned', async () => {
    const plan = {
      scope: 'user' as const,
      action: 'install' as const,
      path: '/home/me/.claude/settings.json',
      changed: true,
      diff: '+ "hooks"',
      beforeHash: 'abc',
    }
    const { client, calls } = fakeClient({
      'integrations/planHooks': async () => plan as never,
      'integrations/applyHooks': async () => ({ backup: '/home/me/.claude/settings.json.bak' }) as never,
    })
    const store = createMemdirStore(memoryDeps(client))
    const planned = await store.getState().planHooks('user', 'install')
    await store.getState().applyHooks(planned)
    expect(calls).toEqual([
      { method: 'integrations/planHooks', args: { scope: 'user', action: 'install' } },
      { method: 'integrations/applyHooks', args: { scope: 'user', action: 'install', beforeHash: 'abc' } },
    ])
  })
})
