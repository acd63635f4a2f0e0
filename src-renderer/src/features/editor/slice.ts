import type { StateCreator } from 'zustand'
import type { MemoryInput } from '../../../../src-shared/contract'
import { RpcFailure } from '../../../../src-shared/errors'
import { linkedMemory, writtenLink } from '../../../../src-shared/index-links'
import type { ConflictDetails, MemoryDoc } from '../../../../src-shared/types'
import type { Draft, EditorSlice, Store, StoreDeps } from '../../app/state'
import { errorMessage, folderName } from '../../lib/format'

function draftOf(doc: MemoryDoc): Draft {
  return {
    name: doc.name,
    description: doc.description ?? '',
    type: doc.type,
    body: doc.body,
    fileName: doc.relPath,
    scope: doc.scope === 'team' ? 'team' : 'private',
  }
}

export const createEditorSlice =
  ({ client, closeWindow }: StoreDeps): StateCreator<Store, [], [], EditorSlice> =>
  (set, get) => {
    /** The save on its way: a second Save waits for it instead of saving the same text again. */
    let inFlight: Promise<void> | undefined
    /** The delete on its way, and of which memory. */
    let removing: { relPath: string; done: Promise<void> } | undefined
    /**
     * Counts every change of which memory the editor shows. A read answered after the user opened
     * another memory (or a newer read of it) is dropped, so a late answer never takes them back.
     */
    let shown = 0
    const show = (patch: Partial<Store>) => {
      shown++
      set(patch)
    }

    const read = async (relPath: string, keep: () => boolean) => {
      const seen = shown
      try {
        const doc = await client['memory/read']({ relPath })
        if (seen !== shown || !keep()) return
        show({
          selected: relPath,
          doc,
          draft: draftOf(doc),
          isNew: false,
          dirty: false,
          conflict: undefined,
          editorError: undefined,
        })
      } catch (e) {
        if (seen === shown) set({ editorError: errorMessage(e) })
      }
    }
    /** The open memory read again after a change on disk; the user's edits, if any, stay. */
    const reload = (relPath: string) => read(relPath, () => get().doc?.relPath === relPath && !get().dirty)

    const saveDraft = async (opts: { acceptSecret?: boolean; overwrite?: boolean }) => {
      const { draft, doc, isNew, conflict, leftBehind } = get()
      if (!draft) return
      if (leftBehind)
        return set({
          editorError: `These edits are to ${leftBehind.label}'s memory: open ${leftBehind.label} again to save them there.`,
        })
      const seen = shown
      set({ saving: true })
      const input: MemoryInput = {
        name: draft.name,
        description: draft.description,
        type: draft.type,
        body: draft.body,
      }
      /** The text saved, when a rename after it was refused: the next save is checked against it. */
      let written: MemoryDoc | undefined
      try {
        let saved: MemoryDoc
        if (isNew) {
          saved = await client['memory/create']({
            input,
            scope: draft.scope,
            fileName: draft.fileName || undefined,
            acceptSecretWarning: opts.acceptSecret,
          })
        } else {
          const expectedHash = opts.overwrite && conflict?.currentHash ? conflict.currentHash : doc!.hash
          saved = await client['memory/update']({
            relPath: doc!.relPath,
            input,
            expectedHash,
            acceptSecretWarning: opts.acceptSecret,
          })
          if (draft.fileName && draft.fileName !== doc!.relPath) {
            written = saved
            saved = await client['memory/rename']({
              from: doc!.relPath,
              to: draft.fileName,
              acceptSecretWarning: opts.acceptSecret,
            })
          }
        }
        if (seen !== shown) {
          // The user opened another memory while this one was saving: that one stays open.
          await get().refreshMemories()
          return
        }
        // Typed while the save was on its way: those keys stay, unsaved, against the version saved.
        const typed = get().draft
        show({
          doc: saved,
          selected: saved.relPath,
          ...(typed && typed !== draft
            ? {
                // A new memory's draft had no file name yet; one the user is changing stays theirs.
                draft: {
                  ...typed,
                  fileName: typed.fileName === draft.fileName ? saved.relPath : typed.fileName,
                },
              }
            : { draft: draftOf(saved), dirty: false }),
          isNew: false,
          conflict: undefined,
          secretWarning: undefined,
          editorError: undefined,
          savedAt: Date.now(),
        })
        await get().refreshMemories()
      } catch (e) {
        // The edits stay unsaved (the file name is still to change), against the version written.
        if (written && seen === shown) set({ doc: written })
        if (e instanceof RpcFailure && e.error.code === 'SECRET_IN_MEMORY') {
          set({ secretWarning: e.message, editorError: undefined })
        } else if (e instanceof RpcFailure && e.error.code === 'CONFLICT') {
          const d = e.error.details as Omit<ConflictDetails, 'relPath'>
          set({ conflict: { relPath: doc?.relPath ?? draft.fileName, ...d }, editorError: e.message })
        } else set({ editorError: errorMessage(e) })
      } finally {
        // A change on disk reported while saving (another program's, or this save's own) is read
        // once the save is done, unless there are edits to keep.
        const changed = get().changedDuringSave
        set({ saving: false, changedDuringSave: false })
        const open = get().doc
        if (changed && open && !get().dirty) void reload(open.relPath)
      }
    }

    return {
      isNew: false,
      dirty: false,
      changedDuringSave: false,
      saving: false,
      guardUnsaved: (proceed, cancel) => {
        if (!get().dirty) return void proceed()
        // One question at a time: a second way out asked meanwhile replaces the first, which is
        // cancelled (its caller, awaiting an answer, gets one).
        const asked = get().leaveGuard
        set({ leaveGuard: { proceed, cancel } })
        asked?.cancel?.()
      },
      resolveLeave: async (choice) => {
        const guard = get().leaveGuard
        set({ leaveGuard: undefined })
        if (!guard) return
        if (choice === 'cancel') return guard.cancel?.()
        if (choice === 'save') {
          await get().save()
          // The save did not go through (conflict, secret warning, error): stay, with the edits.
          if (get().dirty) return guard.cancel?.()
        } else set({ dirty: false })
        await guard.proceed()
      },
      select: async (relPath) => {
        if (relPath === get().doc?.relPath && !get().isNew) return
        // Resolves once the memory is open, or the user kept their unsaved edits instead.
        await new Promise<void>((resolve) =>
          get().guardUnsaved(() => get().loadDoc(relPath).then(resolve), resolve),
        )
      },
      openFile: (relPath) => {
        if (relPath.endsWith('MEMORY.md')) return set({ view: 'index' })
        void get().select(relPath)
        set({ view: 'memories' })
      },
      openLink: async ({ target, wiki }) => {
        const { doc, memories } = get()
        const fromDir = doc?.relPath.includes('/') ? doc.relPath.slice(0, doc.relPath.lastIndexOf('/')) : ''
        const path = target.split('#')[0]!
        const names = new Map(memories.map((m) => [m.relPath, m.name]))
        const link = writtenLink(path, wiki)
        // The rule Health reads MEMORY.md's links by; then a name written as the file name's words
        // (`[[deploy notes]]`, `[[deploy-notes]]` for deploy_notes.md).
        const words = (w: string) =>
          w
            .trim()
            .toLowerCase()
            .replace(/[\s_-]+/g, '-')
        const hit =
          linkedMemory(link, fromDir, [...names.keys()], (f) => names.get(f)) ??
          (wiki
            ? memories.find((m) => words(m.relPath.split('/').pop()!.replace(/\.md$/, '')) === words(path))
                ?.relPath
            : undefined)
        if (hit) await get().select(hit)
        else set({ editorError: `No memory ${wiki ? 'named' : 'at'} “${target}” in this workspace.` })
      },
      loadDoc: (relPath) => {
        // Opening a memory starts a newer read than any on its way.
        shown++
        // The user started editing this memory while it was read (a reload after a change on disk):
        // their edits stay; saving checks them against the version on disk.
        return read(relPath, () => !(get().dirty && get().doc?.relPath === relPath))
      },
      newMemory: () =>
        get().guardUnsaved(() =>
          show({
            selected: undefined,
            doc: undefined,
            isNew: true,
            dirty: false,
            conflict: undefined,
            editorError: undefined,
            view: 'memories',
            focusNameAt: Date.now(),
            draft: { name: '', description: '', type: 'project', body: '', fileName: '', scope: 'private' },
          }),
        ),
      editDraft: (patch) =>
        set((s) => ({
          draft: s.draft ? { ...s.draft, ...patch } : s.draft,
          dirty: true,
          secretWarning: undefined,
        })),
      compactIndex: async () => {
        try {
          const cut = (await client['health/get']()).findings.find((f) => f.fixes.includes('compact-index'))
          if (cut) await client['health/fix']({ id: cut.id, fix: 'compact-index' })
          // The memory itself is unchanged: only whether its index line is in view.
          const relPath = get().doc?.relPath
          const doc = relPath ? await client['memory/read']({ relPath }) : undefined
          if (doc && get().doc?.relPath === relPath) set({ doc, editorError: undefined })
        } catch (e) {
          set({ editorError: errorMessage(e) })
        }
      },
      save: async (opts = {}) => {
        while (inFlight) {
          await inFlight
          // Saved by the press before this one: nothing new to save.
          if (!get().dirty && !get().isNew) return
        }
        inFlight = saveDraft(opts).finally(() => (inFlight = undefined))
        await inFlight
      },
      saveMerged: async (body) => {
        set((s) => ({ draft: s.draft ? { ...s.draft, body } : s.draft, dirty: true }))
        await get().save({ overwrite: true })
      },
      takeTheirs: async () => {
        const rel = get().doc?.relPath
        set({ conflict: undefined, dirty: false })
        if (rel) await get().loadDoc(rel)
      },
      remove: async () => {
        const { doc } = get()
        // Its project is not open: the same path in the open one is another memory.
        if (!doc || get().leftBehind) return
        // Asked again while the delete is on its way: the same delete, not "no memory at …" after it.
        if (removing?.relPath === doc.relPath) return removing.done
        const done = (async () => {
          try {
            await client['memory/delete']({ relPath: doc.relPath, expectedHash: doc.hash })
            show({ selected: undefined, doc: undefined, draft: undefined, dirty: false, isNew: false })
            await get().refreshMemories()
          } catch (e) {
            set({ editorError: errorMessage(e) })
          }
        })()
        removing = { relPath: doc.relPath, done }
        await done.finally(() => (removing = undefined))
      },
      closeEditor: () => get().guardUnsaved(() => get().clearEditor()),
      clearEditor: () =>
        show({
          selected: undefined,
          doc: undefined,
          draft: undefined,
          isNew: false,
          dirty: false,
          conflict: undefined,
          leftBehind: undefined,
        }),
      workspaceMoved: (was, now) => {
        const left = get().leftBehind
        // The project the edits were left in is open again (from any window): they can be saved.
        if (left) return left.memoryDir === now.memoryDir ? set({ leftBehind: undefined }) : undefined
        if (!get().dirty) return get().clearEditor()
        const label = folderName(was.projectRoot)
        // A read of the last project's memory answered from now on is no longer this window's.
        show({
          leftBehind: { projectRoot: was.projectRoot, memoryDir: was.memoryDir, label },
          conflict: undefined,
          secretWarning: undefined,
          editorError: undefined,
        })
      },
      filesChanged: (paths) => {
        const { doc, dirty, saving, leftBehind } = get()
        // The paths are the open workspace's, not those of the project the edits were left in.
        if (leftBehind) return
        // An external change to the open file: reload it unless the user has unsaved edits.
        if (!doc || !paths.includes(doc.relPath)) return
        if (saving) set({ changedDuringSave: true })
        else if (!dirty) void reload(doc.relPath)
      },
      saveAndClose: async () => {
        await get().save()
        if (!get().dirty) closeWindow()
      },
    }
  }
