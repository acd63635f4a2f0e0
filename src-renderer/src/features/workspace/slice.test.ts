import { describe, expect, it } from 'vitest'
import { createMemdirStore } from '../../app/create-store'
import { createEventRouter } from '../../app/event-router'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { doc, listItem, settings, summary, team, workspace } from '../../test/samples'

async function until(ok: () => boolean) {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(ok()).toBe(true)
}

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
      // The main process tells every window, this one too, as its answer is on its way.
      const info = workspace(open)
      queueMicrotask(() => fake.emit({ type: 'workspace/changed', info }))
      return info
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
    'memory/read': async ({ relPath }) => doc(relPath, `${open} body`),
    'memory/update': async ({ relPath, input }) => doc(relPath, input.body),
    'memory/delete': async () => undefined,
    'review/list': async () => [],
    'memory/search': async () => [],
    'health/get': async () => ({ findings: [] }) as never,
  })
  /** Another window opens `memoryDir`: the main process switches and tells every window. */
  const openedElsewhere = (memoryDir: string) => {
    open = memoryDir
    fake.emit({ type: 'workspace/changed', info: workspace(memoryDir) })
  }
  const store = createMemdirStore(memoryDeps(fake.client))
  fake.client.onEvent(createEventRouter(store))
  return { ...fake, holdNextSettings, openedElsewhere, store }
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

  it("another window opening another project empties a clean editor and shows that project's list", async () => {
    const { store, openedElsewhere } = twoProjects()
    await store.getState().loadWorkspaces()
    await store.getState().select('a.md')
    store.getState().showHistory('a.md')
    openedElsewhere('/m/blog')
    await until(() => store.getState().memories.length === 2)
    const s = store.getState()
    expect(s.historyPath).toBeUndefined() // blog's whole timeline, not shop's a.md
    expect(s.workspace?.memoryDir).toBe('/m/blog')
    expect([s.doc, s.draft, s.leftBehind]).toEqual([undefined, undefined, undefined])
    expect(s.workspaces.map((w) => w.memoryDir)).toEqual(['/m/shop', '/m/blog'])
  })

  it('unsaved edits are never saved into a project another window opened: kept, and saved once theirs is open again', async () => {
    const { store, calls, openedElsewhere } = twoProjects()
    await store.getState().loadWorkspaces()
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'shop edit' })
    openedElsewhere('/m/blog')
    await until(() => store.getState().memories.length === 2)
    expect(store.getState().leftBehind).toMatchObject({ memoryDir: '/m/shop', label: 'shop' })
    expect(store.getState().draft?.body).toBe('shop edit')
    // A change in the open project at the same path is not this memory's.
    store.getState().filesChanged(['a.md'])
    await store.getState().save()
    await store.getState().remove()
    expect(calls.filter((c) => /^memory\/(update|delete|read)$/.test(c.method))).toHaveLength(1) // the first open
    expect(store.getState().editorError).toContain('open shop again')
    await store.getState().reopenLeftBehind()
    expect(store.getState().workspace?.memoryDir).toBe('/m/shop')
    expect(store.getState().leftBehind).toBeUndefined()
    await store.getState().save()
    expect(calls.find((c) => c.method === 'memory/update')?.args).toMatchObject({
      relPath: 'a.md',
      input: { body: 'shop edit' },
    })
    expect(store.getState().dirty).toBe(false)
  })

  it('edits left behind are the editor’s again when any window opens their project', async () => {
    const { store, openedElsewhere } = twoProjects()
    await store.getState().loadWorkspaces()
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'shop edit' })
    openedElsewhere('/m/blog')
    await until(() => store.getState().leftBehind !== undefined && store.getState().memories.length === 2)
    openedElsewhere('/m/shop')
    await until(() => store.getState().memories.length === 1)
    expect(store.getState().leftBehind).toBeUndefined()
    expect(store.getState().draft?.body).toBe('shop edit')
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
