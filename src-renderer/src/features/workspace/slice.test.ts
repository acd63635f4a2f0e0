import { describe, expect, it } from 'vitest'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { doc, listItem, settings, summary, team, workspace } from '../../test/samples'

function twoProjects() {
  let open = '/m/shop'
  const perProject: Record<string, { repo: string; files: string[] }> = {
    '/m/shop': { repo: 'acme/shop', files: ['a.md'] },
    '/m/blog': { repo: 'acme/blog', files: ['x.md', 'y.md'] },
  }
  let held: Promise<void> | undefined
  const holdNextSettings = () => {
    let release!: () => void
    held = new Promise<void>((r) => (release = r))
    return release
  }
  const fake = fakeClient({
    'workspace/current': async () => workspace(open),
    'workspace/open': async ({ projectRoot }) => {
      open = projectRoot.replace(/^\/p/, '')
      return workspace(open)
    },
    'workspace/list': async () => [summary('/m/shop', 1), summary('/m/blog', 2)],
    'settings/get': async () => {
      const wait = held
      held = undefined
      const answer = settings({ teamRepo: perProject[open]!.repo })
      await wait
      return answer
    },
    'team/status': async () => team({ repo: perProject[open]!.repo }),
    'activity/list': async () => [],
    'memory/list': async () => perProject[open]!.files.map((f) => listItem(f)),
    'memory/read': async ({ relPath }) => doc(relPath, 'body'),
    'review/list': async () => [],
    'memory/search': async () => [],
    'health/get': async () => ({ findings: [] }) as never,
  })
  return { ...fake, holdNextSettings, store: createMemdirStore(memoryDeps(fake.client)) }
}

describe('workspace slice', () => {
  it("opening another project brings that project's settings, team repo and list, and a clean editor", async () => {
    const { store } = twoProjects()
    await store.getState().loadWorkspaces()
    await store.getState().select('a.md')
    store.getState().setQuery('deploy')
    await store.getState().openWorkspace('/p/m/blog')
    const s = store.getState()
    expect(s.workspace?.memoryDir).toBe('/m/blog')
    expect(s.settings?.teamRepo).toBe('acme/blog')
    expect(s.team?.repo).toBe('acme/blog')
    expect(s.memories.map((m) => m.relPath)).toEqual(['x.md', 'y.md'])
    expect([s.doc, s.query, s.searchHits]).toEqual([undefined, '', undefined])
  })

  it('asks before switching away from unsaved edits, and Cancel stays', async () => {
    const { store, calls } = twoProjects()
    await store.getState().loadWorkspaces()
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'not saved' })
    const switching = store.getState().openWorkspace('/p/m/blog')
    expect(store.getState().leaveGuard).toBeDefined()
    await store.getState().resolveLeave('cancel')
    await switching
    expect(store.getState().workspace?.memoryDir).toBe('/m/shop')
    expect(store.getState().draft?.body).toBe('not saved')
    expect(calls.some((c) => c.method === 'workspace/open')).toBe(false)
  })

  it('a workspace change whose answers arrive after a later one is dropped: the project opened last is shown', async () => {
    const { store, holdNextSettings } = twoProjects()
    await store.getState().loadWorkspaces()
    // The event of the project open before (shop) is still waiting for its answers …
    const release = holdNextSettings()
    const stale = store.getState().workspaceChanged(workspace('/m/shop'))
    // … when the user opens blog, whose answers come at once.
    await store.getState().openWorkspace('/p/m/blog')
    release()
    await stale
    expect(store.getState().workspace?.memoryDir).toBe('/m/blog')
    expect(store.getState().settings?.teamRepo).toBe('acme/blog')
  })
})
