import { describe, expect, it, vi } from 'vitest'
import type { Handlers } from '../../../../src-shared/contract'
import { RpcFailure } from '../../../../src-shared/errors'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'
import { doc, listItem } from '../../test/samples'

function editorWorld(onDisk: { body: string; hash: string }) {
  const handlers: Partial<Handlers> = {
    'memory/read': async ({ relPath }) => doc(relPath, onDisk.body, onDisk.hash),
    'memory/list': async () => [listItem('a.md')],
    'memory/update': async ({ relPath, input, expectedHash }) => {
      if (expectedHash !== onDisk.hash)
        throw new RpcFailure({
          code: 'CONFLICT',
          message: 'a.md changed on disk',
          details: { current: onDisk.body, currentHash: onDisk.hash, attempted: input.body },
        })
      onDisk.body = input.body
      onDisk.hash = `h-${input.body}`
      return doc(relPath, onDisk.body, onDisk.hash)
    },
  }
  const fake = fakeClient(handlers)
  const deps = memoryDeps(fake.client)
  return { ...fake, handlers, deps, store: createMemdirStore(deps) }
}

describe('editor slice', () => {
  it('saves against the hash it loaded, and on a conflict keeps the edits and shows both versions', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const { store } = editorWorld(disk)
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'mine' })
    disk.body = 'theirs'
    disk.hash = 'h2'
    await store.getState().save()
    const s = store.getState()
    expect(s.dirty).toBe(true)
    expect(s.draft?.body).toBe('mine')
    expect(s.conflict).toEqual({ relPath: 'a.md', current: 'theirs', currentHash: 'h2', attempted: 'mine' })
    // "Keep mine" overwrites exactly the version the user saw.
    await store.getState().saveMerged('merged')
    expect(disk.body).toBe('merged')
    expect(store.getState().conflict).toBeUndefined()
    expect(store.getState().dirty).toBe(false)
  })

  it('Save pressed twice saves once; what is typed while a save is on its way stays, unsaved', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const { store, calls } = editorWorld(disk)
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'v2' })
    const first = store.getState().save()
    const second = store.getState().save()
    expect(store.getState().saving).toBe(true)
    await Promise.all([first, second])
    expect(calls.filter((c) => c.method === 'memory/update')).toHaveLength(1)
    expect(store.getState()).toMatchObject({ conflict: undefined, editorError: undefined, dirty: false })
    expect(disk.body).toBe('v2')

    // Keys typed after Save was pressed, before its answer came.
    store.getState().editDraft({ body: 'v2 and more' })
    const saving = store.getState().save()
    store.getState().editDraft({ body: 'v2 and more, typed during the save' })
    await saving
    expect(disk.body).toBe('v2 and more')
    expect(store.getState()).toMatchObject({ dirty: true, saving: false })
    expect(store.getState().draft?.body).toBe('v2 and more, typed during the save')
    // The next save is against the version the first one wrote, not a conflict with it.
    await store.getState().save()
    expect(disk.body).toBe('v2 and more, typed during the save')
    expect(store.getState()).toMatchObject({ dirty: false, conflict: undefined })
  })

  it('a rename refused after the text was saved: the next save is not a conflict with that save', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const world = editorWorld(disk)
    const { store } = world
    const taken = new Set(['b.md'])
    world.handlers['memory/rename'] = async ({ to }) => {
      if (taken.has(to)) throw new RpcFailure({ code: 'EXISTS', message: `a memory already exists at ${to}` })
      return doc(to, disk.body, disk.hash)
    }
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'v2', fileName: 'b.md' })
    await store.getState().save()
    expect(disk.body).toBe('v2')
    expect(store.getState()).toMatchObject({ editorError: 'a memory already exists at b.md', dirty: true })
    expect(store.getState().draft).toMatchObject({ body: 'v2', fileName: 'b.md' })

    // The user picks a free name and saves again: the rename goes through, with no conflict.
    store.getState().editDraft({ fileName: 'c.md' })
    await store.getState().save()
    expect(store.getState()).toMatchObject({
      conflict: undefined,
      editorError: undefined,
      dirty: false,
      doc: { relPath: 'c.md' },
    })
  })

  it('a new name holding a credential is asked about, and "Save anyway" renames', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const world = editorWorld(disk)
    world.handlers['memory/rename'] = async ({ to, acceptSecretWarning }) => {
      if (!acceptSecretWarning)
        throw new RpcFailure({
          code: 'SECRET_IN_MEMORY',
          message: 'ghp_….md would contain a GitHub token in its name',
        })
      return doc(to, disk.body, disk.hash)
    }
    const { store, calls } = world
    await store.getState().select('a.md')
    store.getState().editDraft({ fileName: 'ghp_x.md' })
    await store.getState().save()
    expect(store.getState()).toMatchObject({
      secretWarning: expect.stringContaining('in its name'),
      dirty: true,
    })
    await store.getState().save({ acceptSecret: true })
    expect(calls.filter((c) => c.method === 'memory/rename').map((c) => c.args)).toEqual([
      { from: 'a.md', to: 'ghp_x.md' },
      { from: 'a.md', to: 'ghp_x.md', acceptSecretWarning: true },
    ])
    expect(store.getState()).toMatchObject({
      secretWarning: undefined,
      dirty: false,
      doc: { relPath: 'ghp_x.md' },
    })
  })

  it('Delete pressed twice deletes once, with no error after it', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const world = editorWorld(disk)
    let deleted = false
    world.handlers['memory/delete'] = async ({ relPath }) => {
      if (deleted) throw new RpcFailure({ code: 'NOT_FOUND', message: `no memory at ${relPath}` })
      deleted = true
    }
    const { store, calls } = world
    await store.getState().select('a.md')
    await Promise.all([store.getState().remove(), store.getState().remove()])
    expect(calls.filter((c) => c.method === 'memory/delete')).toHaveLength(1)
    expect(store.getState()).toMatchObject({ doc: undefined, editorError: undefined })
  })

  it('a change on disk reported while a save is on its way is shown once the save is done', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const world = editorWorld(disk)
    const { store } = world
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'v2' })
    const save = world.handlers['memory/update']!
    world.handlers['memory/update'] = async (args) => {
      const saved = await save(args)
      // Claude Code writes the memory right after the save, before its answer reaches the window.
      disk.body = 'from Claude Code'
      disk.hash = 'h9'
      store.getState().filesChanged(['a.md'])
      return saved
    }
    await store.getState().save()
    for (let i = 0; i < 20 && store.getState().doc?.body !== 'from Claude Code'; i++)
      await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().doc?.body).toBe('from Claude Code')
    expect(store.getState()).toMatchObject({ dirty: false, changedDuringSave: false })
  })

  it('reloads the open memory after an outside change, unless it has unsaved edits', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const { store } = editorWorld(disk)
    await store.getState().select('a.md')
    disk.body = 'from Claude Code'
    store.getState().filesChanged(['a.md'])
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().doc?.body).toBe('from Claude Code')

    store.getState().editDraft({ body: 'typing' })
    disk.body = 'again'
    store.getState().filesChanged(['a.md'])
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().draft?.body).toBe('typing')
  })

  it('a read answered late never takes the editor back to a memory the user has left', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const world = editorWorld(disk)
    const { store } = world
    const read = world.handlers['memory/read']!
    let release: () => void = () => {}
    let hold = false
    world.handlers['memory/read'] = async (args) => {
      if (hold && args.relPath === 'a.md') await new Promise<void>((r) => (release = r))
      return read(args)
    }
    await store.getState().select('a.md')
    // The watcher's echo of a save starts a reload of a.md; the user opens b.md before it answers.
    hold = true
    store.getState().filesChanged(['a.md'])
    await store.getState().select('b.md')
    release()
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState()).toMatchObject({ selected: 'b.md', doc: { relPath: 'b.md' } })

    // Two memories opened one after the other: the second stays open whichever answer comes last.
    const first = store.getState().select('a.md')
    const second = store.getState().select('c.md')
    await second
    release()
    await first
    expect(store.getState()).toMatchObject({ selected: 'c.md', doc: { relPath: 'c.md' } })

    // Another workspace opened while a memory of this one was being read: the editor stays empty.
    const opening = store.getState().select('a.md')
    store.getState().clearEditor()
    release()
    await opening
    expect(store.getState()).toMatchObject({ selected: undefined, doc: undefined, draft: undefined })
  })

  it('a save answered after the user moved on to another memory leaves that one open', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const world = editorWorld(disk)
    const { store } = world
    const update = world.handlers['memory/update']!
    let release: () => void = () => {}
    world.handlers['memory/update'] = async (args) => {
      await new Promise<void>((r) => (release = r))
      return update(args)
    }
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'v2' })
    const saving = store.getState().save()
    const leaving = store.getState().select('b.md')
    await store.getState().resolveLeave('discard')
    await leaving
    release()
    await saving
    expect(disk.body).toBe('v2')
    expect(store.getState()).toMatchObject({ selected: 'b.md', doc: { relPath: 'b.md' }, saving: false })
  })

  it('keeps what the user typed while a reload of the same memory was on its way', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const { store, calls } = editorWorld(disk)
    await store.getState().select('a.md')
    store.getState().filesChanged(['a.md']) // the watcher's echo of a save: a reload starts
    store.getState().editDraft({ description: 'typed meanwhile' })
    await new Promise((r) => setTimeout(r, 0))
    expect(store.getState().draft?.description).toBe('typed meanwhile')
    expect(store.getState().dirty).toBe(true)
    await store.getState().save()
    const update = calls.find((c) => c.method === 'memory/update')?.args as { input: { description: string } }
    expect(update.input.description).toBe('typed meanwhile')
  })

  it('asks before dropping unsaved edits, and Cancel keeps them', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const { store } = editorWorld(disk)
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'unsaved' })
    store.getState().newMemory()
    expect(store.getState().leaveGuard).toBeDefined()
    expect(store.getState().isNew).toBe(false)
    await store.getState().resolveLeave('cancel')
    expect(store.getState().draft?.body).toBe('unsaved')
    store.getState().newMemory()
    await store.getState().resolveLeave('discard')
    expect(store.getState().isNew).toBe(true)
    expect(store.getState().draft?.body).toBe('')
  })

  it('a second way out asked while the first waits for an answer cancels the first: no caller waits for good', async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const { store } = editorWorld(disk)
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'unsaved' })
    let firstAnswered = false
    const first = store
      .getState()
      .select('b.md')
      .then(() => (firstAnswered = true))
    const second = store.getState().select('c.md')
    await first
    expect(firstAnswered).toBe(true)
    expect(store.getState().selected).toBe('a.md')
    await store.getState().resolveLeave('discard')
    await second
    expect(store.getState()).toMatchObject({
      selected: 'c.md',
      doc: { relPath: 'c.md' },
      leaveGuard: undefined,
    })
  })

  it("closes the window after Electron's Save only when the save went through", async () => {
    const disk = { body: 'v1', hash: 'h1' }
    const { store, deps } = editorWorld(disk)
    await store.getState().select('a.md')
    store.getState().editDraft({ body: 'edit' })
    disk.hash = 'changed-under-us'
    await store.getState().saveAndClose()
    expect(deps.closed()).toBe(false)
    store.setState({ doc: { ...store.getState().doc!, hash: 'changed-under-us' } })
    await store.getState().saveAndClose()
    expect(deps.closed()).toBe(true)
    expect(disk.body).toBe('edit')
  })

  it('opens a file named elsewhere: MEMORY.md in its own view, a memory in the editor', async () => {
    const { store } = editorWorld({ body: 'v', hash: 'h' })
    store.getState().setView('health')
    store.getState().openFile('MEMORY.md')
    expect(store.getState().view).toBe('index')
    store.getState().openFile('a.md')
    expect(store.getState().view).toBe('memories')
    await vi.waitFor(() => expect(store.getState().doc?.relPath).toBe('a.md'))
  })

  it('opens the memory a link leads to, as Health reads MEMORY.md’s links, and says so when none', async () => {
    const { store } = editorWorld({ body: 'v', hash: 'h' })
    const memories = [
      listItem('deploy_notes.md', { name: 'Deploy notes' }),
      listItem('ops/runbook.md', { name: 'runbook' }),
      listItem('team/deploy.md', { name: 'team-deploy' }),
      listItem('team/oncall.md', { name: 'oncall' }),
    ]
    // Each link is followed from a memory at `from` (never the one it leads to).
    const opens = async (target: string, wiki: boolean, from = 'a.md') => {
      store.setState({ memories, doc: doc(from, 'v', 'h'), selected: undefined, editorError: undefined })
      await store.getState().openLink({ target, wiki })
      return store.getState().selected ?? store.getState().editorError
    }
    expect(await opens('deploy notes', true)).toBe('deploy_notes.md') // by its frontmatter name
    expect(await opens('deploy_notes.md', true)).toBe('deploy_notes.md') // [[file.md]]
    expect(await opens('deploy-notes', true)).toBe('deploy_notes.md') // a name as the file's words
    expect(await opens('runbook', true)).toBe('ops/runbook.md') // a file name in any folder
    expect(await opens('team/deploy', true)).toBe('team/deploy.md') // with its folder
    expect(await opens('deploy_notes.md', false)).toBe('deploy_notes.md') // [x](deploy_notes.md)
    // A Markdown link is read from the open memory's folder.
    expect(await opens('oncall.md', false, 'team/deploy.md')).toBe('team/oncall.md')
    expect(await opens('../deploy_notes.md', false, 'team/deploy.md')).toBe('deploy_notes.md')
    expect(await opens('../../deploy_notes.md', false, 'team/deploy.md')).toBe(
      'No memory at “../../deploy_notes.md” in this workspace.',
    )
    expect(await opens('nowhere', true)).toBe('No memory named “nowhere” in this workspace.')
  })
})
