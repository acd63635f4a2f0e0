import { describe, expect, it } from 'vitest'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { listItem, summary, workspace } from '../../test/samples'
import { visibleMemories } from './slice'

describe('memory list slice', () => {
  it('a refresh answered late never replaces the list a newer refresh brought', async () => {
    const answers: ((files: string[]) => void)[] = []
    const { client } = fakeClient({
      'memory/list': () =>
        new Promise((resolve) => answers.push((files) => resolve(files.map((f) => listItem(f))))),
    })
    const store = createMemdirStore(memoryDeps(client))
    // Two changes on disk: a.md written, then b.md; the first refresh is answered last.
    const older = store.getState().refreshMemories()
    const newer = store.getState().refreshMemories()
    answers[1]!(['a.md', 'b.md'])
    await newer
    answers[0]!(['a.md'])
    await older
    expect(store.getState().memories.map((m) => m.relPath)).toEqual(['a.md', 'b.md'])
  })

  it("keeps the workspace picker's count equal to the list after every refresh", async () => {
    let files = ['a.md', 'b.md']
    const { client } = fakeClient({ 'memory/list': async () => files.map((f) => listItem(f)) })
    const store = createMemdirStore(memoryDeps(client))
    store.setState({
      workspace: workspace('/m/shop'),
      workspaces: [summary('/m/shop', 26), summary('/m/other', 3)],
    })
    files = ['a.md', 'b.md', 'c.md']
    await store.getState().refreshMemories()
    expect(store.getState().memories).toHaveLength(3)
    expect(store.getState().workspaces.map((w) => w.memoryCount)).toEqual([3, 3])
  })

  it('asks for the whole list after the first screen, unless a refresh has brought it meanwhile', async () => {
    const all = Array.from({ length: 400 }, (_, i) => listItem(`m${i}.md`))
    let firstAnswer!: () => void
    const asked: string[] = []
    const { client } = fakeClient({
      'memory/list': (args) => {
        asked.push(args?.first ? 'first' : 'whole')
        if (!args?.first) return Promise.resolve(all)
        return new Promise((resolve) => (firstAnswer = () => resolve(all.slice(0, args.first))))
      },
    })
    const store = createMemdirStore(memoryDeps(client))
    const loading = store.getState().loadFirstMemories()
    await store.getState().refreshMemories() // a change on disk answered before the first screen
    firstAnswer()
    await loading
    expect(asked).toEqual(['first', 'whole'])
    expect(store.getState()).toMatchObject({ loaded: true, listPartial: false })
    expect(store.getState().memories).toHaveLength(400)

    asked.length = 0
    const fresh = createMemdirStore(memoryDeps(client))
    const plain = fresh.getState().loadFirstMemories()
    firstAnswer()
    await plain
    expect(asked).toEqual(['first', 'whole'])
    expect(fresh.getState().memories).toHaveLength(400)
  })

  it('shows the hits of the newest query even when an older search answers last', async () => {
    const answers: Record<string, () => void> = {}
    const { client } = fakeClient({
      'memory/search': ({ query }) =>
        new Promise((resolve) => {
          answers[query] = () => resolve([{ relPath: `${query}.md`, score: 1, terms: [query] }])
        }),
    })
    const store = createMemdirStore(memoryDeps(client))
    store.getState().setQuery('fe')
    store.getState().setQuery('feature')
    answers['feature']!()
    await Promise.resolve()
    await new Promise((r) => setTimeout(r, 0))
    answers['fe']!()
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().searchedFor).toBe('feature')
    expect(store.getState().searchHits?.map((h) => h.relPath)).toEqual(['feature.md'])
  })

  it('filters by name, description and path until hits arrive, then lists hits in rank order', () => {
    const memories = [
      listItem('db.md', { name: 'Database', description: 'postgres notes' }),
      listItem('team/ci.md', { name: 'CI', scope: 'team', type: 'reference' }),
      listItem('flags.md', { name: 'Flags' }),
    ]
    const base = { memories, typeFilter: 'all' as const, scopeFilter: 'all' as const, searchHits: undefined }
    expect(visibleMemories({ ...base, query: 'POSTGRES' }).map((m) => m.relPath)).toEqual(['db.md'])
    expect(visibleMemories({ ...base, query: 'team/' }).map((m) => m.relPath)).toEqual(['team/ci.md'])
    expect(visibleMemories({ ...base, query: '', scopeFilter: 'team' }).map((m) => m.relPath)).toEqual([
      'team/ci.md',
    ])
    const hits = [
      { relPath: 'flags.md', score: 2, terms: [] },
      { relPath: 'gone.md', score: 1.5, terms: [] },
      { relPath: 'db.md', score: 1, terms: [] },
    ]
    expect(visibleMemories({ ...base, query: 'rollout', searchHits: hits }).map((m) => m.relPath)).toEqual([
      'flags.md',
      'db.md',
    ])
    // The next keystroke, before its hits arrive: the same list, the very same array (no redraw);
    // new hits, a filter or the plain match give another.
    const shown = visibleMemories({ ...base, query: 'rollout', searchHits: hits })
    expect(visibleMemories({ ...base, query: 'rollouts', searchHits: hits })).toBe(shown)
    expect(visibleMemories({ ...base, query: 'rollouts', searchHits: [...hits] })).not.toBe(shown)
    const teamOnly = visibleMemories({ ...base, query: 'rollouts', searchHits: hits, scopeFilter: 'team' })
    expect(teamOnly).toEqual([])
    expect(visibleMemories({ ...base, query: 'flag' }).map((m) => m.relPath)).toEqual(['flags.md'])
    expect(visibleMemories({ ...base, query: 'flags' }).map((m) => m.relPath)).toEqual(['flags.md'])
    expect(visibleMemories({ ...base, query: 'db' }).map((m) => m.relPath)).toEqual(['db.md'])
  })

  it('remembers a folded list across stores (the next launch)', () => {
    const { client } = fakeClient({})
    const deps = memoryDeps(client)
    const first = createMemdirStore(deps)
    expect(first.getState().listCollapsed).toBe(false)
    first.getState().toggleList()
    expect(createMemdirStore(deps).getState().listCollapsed).toBe(true)
  })

  it('refuses a call whose arguments break the contract, naming the field', async () => {
    const { client, calls } = fakeClient({ 'memory/read': async () => undefined as never })
    await expect(client['memory/read']({ relPath: 42 } as never)).rejects.toThrow(/memory\/read: .*relPath/)
    expect(calls).toEqual([])
  })
})
