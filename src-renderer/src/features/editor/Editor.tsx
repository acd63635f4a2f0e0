import { useShallow } from 'zustand/react/shallow'
import { diffLines } from 'diff'
import { Check, History, X } from 'lucide-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { ConflictDetails, MemoryType } from '../../../../src-shared/types'
import { MarkdownEditor } from '../../components/MarkdownEditor'
import { MarkdownPreview } from '../../components/MarkdownPreview'
import { bodyOfFile } from '../../lib/memory-text'
import { useStore } from '../../app/store'
import { Segmented } from '../../components/Segmented'
import { SubmitForm } from '../../components/SubmitForm'

const TYPE_HINT: Record<MemoryType, string> = {
  user: 'about the user: role, preferences, how they like to work',
  feedback: 'how to work here: rules, corrections, what to avoid',
  project: 'facts about this project that are not in the code',
  reference: 'where to find things: dashboards, docs, tickets',
}

/** Git-style conflict markers around the parts the two bodies disagree on, for the user to merge. */
function mergeText(theirs: string, mine: string): string {
  const out: string[] = []
  const parts = diffLines(theirs, mine)
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!
    if (!p.added && !p.removed) {
      out.push(p.value)
      continue
    }
    const next = parts[i + 1]
    const theirsPart = p.removed ? p.value : ''
    const minePart = p.added ? p.value : next?.added ? next.value : ''
    if (p.removed && next?.added) i++
    const nl = (s: string) => (s && !s.endsWith('\n') ? s + '\n' : s)
    out.push(`<<<<<<< on disk\n${nl(theirsPart)}=======\n${nl(minePart)}>>>>>>> yours\n`)
  }
  return out.join('')
}

function ConflictPanel({ conflict }: { conflict: ConflictDetails }) {
  const { draft, save, takeTheirs, saveMerged } = useStore(
    useShallow((s) => ({ draft: s.draft, save: s.save, takeTheirs: s.takeTheirs, saveMerged: s.saveMerged })),
  )
  const [merging, setMerging] = useState<string>()
  const theirs = conflict.current === null ? '' : bodyOfFile(conflict.current)
  const mine = draft?.body ?? ''
  const parts = useMemo(() => diffLines(theirs, mine), [theirs, mine])
  useEffect(() => {
    if (merging === undefined) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMerging(undefined)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [merging])
  return (
    <section className="conflict" role="alert" aria-label="Edit conflict">
      <div className="conflict-head">
        <div>
          <h2>This memory changed on disk while you were editing</h2>
          <p className="muted">
            Nothing was overwritten. <span className="diff-del-key">Red</span> is only on disk,{' '}
            <span className="diff-add-key">green</span> only in your version.
          </p>
        </div>
        <div className="actions">
          <button type="button" onClick={() => void takeTheirs()}>
            Take theirs
          </button>
          <button type="button" onClick={() => setMerging(mergeText(theirs, mine))}>
            Merge…
          </button>
          <button type="button" className="danger" onClick={() => void save({ overwrite: true })}>
            Keep mine
          </button>
        </div>
      </div>
      {merging === undefined ? (
        conflict.current === null ? (
          <p className="warn-text">The file was deleted on disk. Keep mine writes it again.</p>
        ) : (
          <pre className="diff" aria-label="Differences: on disk and yours">
            {parts.flatMap((p, i) =>
              p.value
                .replace(/\n$/, '')
                .split('\n')
                .map((line, j) => (
                  <div
                    key={`${i}-${j}`}
                    className={p.added ? 'diff-add' : p.removed ? 'diff-del' : 'diff-same'}
                  >
                    <span className="diff-sign">{p.added ? '+' : p.removed ? '−' : ' '}</span>
                    {line || ' '}
                  </div>
                )),
            )}
          </pre>
        )
      ) : (
        <div className="merge">
          <p className="muted">
            Edit the combined text: keep what you want between the <code>&lt;&lt;&lt;&lt;&lt;&lt;&lt;</code>{' '}
            and <code>&gt;&gt;&gt;&gt;&gt;&gt;&gt;</code> markers and delete the markers.
          </p>
          <MarkdownEditor value={merging} onChange={setMerging} label="Merged text" />
          <div className="actions">
            <button type="button" className="ghost" onClick={() => setMerging(undefined)}>
              Cancel
            </button>
            <button
              type="button"
              className="primary"
              disabled={/^(<<<<<<<|=======|>>>>>>>)/m.test(merging)}
              title={
                /^(<<<<<<<|=======|>>>>>>>)/m.test(merging) ? 'Remove the conflict markers first' : undefined
              }
              onClick={() => void saveMerged(merging)}
            >
              Save merged
            </button>
          </div>
        </div>
      )}
    </section>
  )
}

export function Editor() {
  const {
    draft,
    doc,
    isNew,
    dirty,
    conflict,
    secretWarning,
    editorError,
    savedAt,
    focusNameAt,
    editDraft,
    save,
    remove,
    closeEditor,
    showHistory,
    openLink,
    compactIndex,
    health,
    leftBehind,
    reopenLeftBehind,
    clearEditor,
  } = useStore(
    useShallow((s) => ({
      draft: s.draft,
      doc: s.doc,
      isNew: s.isNew,
      dirty: s.dirty,
      conflict: s.conflict,
      secretWarning: s.secretWarning,
      editorError: s.editorError,
      savedAt: s.savedAt,
      focusNameAt: s.focusNameAt,
      editDraft: s.editDraft,
      save: s.save,
      remove: s.remove,
      closeEditor: s.closeEditor,
      showHistory: s.showHistory,
      openLink: s.openLink,
      compactIndex: s.compactIndex,
      health: s.health,
      leftBehind: s.leftBehind,
      reopenLeftBehind: s.reopenLeftBehind,
      clearEditor: s.clearEditor,
    })),
  )
  // Health's findings about this memory, shown where the user is looking: the ones its row's badge
  // counts ("Not in MEMORY.md" too), and notes.
  const problems = (health?.findings ?? []).filter(
    (f) => doc && (f.path === doc.relPath || f.other === doc.relPath),
  )
  const [preview, setPreview] = useState(false)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [now, setNow] = useState(Date.now())
  const name = useRef<HTMLInputElement>(null)
  const readOnly = doc?.scope === 'agent' || Boolean(doc?.linkedTo)

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault()
        void useStore.getState().save()
      }
      if (e.key === 'Escape') setConfirmDelete(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  useEffect(() => setConfirmDelete(false), [doc?.relPath])
  useEffect(() => {
    if (focusNameAt) name.current?.focus()
  }, [focusNameAt])
  // "Saved" shows for a few seconds after a save.
  useEffect(() => {
    if (!savedAt) return
    setNow(Date.now())
    const t = setTimeout(() => setNow(Date.now()), 3000)
    return () => clearTimeout(t)
  }, [savedAt])
  const justSaved = !!savedAt && !dirty && now - savedAt < 3000

  if (!draft) return null
  return (
    <SubmitForm className="editor" onSubmit={save}>
      <header className="editor-head">
        <div className="editor-title">
          <h1 title={draft.name || doc?.relPath}>{isNew ? 'New memory' : draft.name || doc?.relPath}</h1>
          {doc && (
            <span className="muted mono file-name" title={doc.relPath}>
              {doc.relPath}
            </span>
          )}
        </div>
        <div className="editor-status">
          {dirty && <span className="badge">Unsaved</span>}
          {justSaved && (
            <span className="badge ok saved" role="status">
              <Check size={12} aria-hidden /> Saved
            </span>
          )}
          {doc && doc.scope !== 'agent' && (
            <button type="button" className="ghost icon-button" onClick={() => showHistory(doc.relPath)}>
              <History size={14} aria-hidden />
              <span className="icon-label">History</span>
            </button>
          )}
          <button
            type="button"
            className="ghost icon-only"
            onClick={closeEditor}
            aria-label="Close editor"
            title="Close"
          >
            <X size={16} aria-hidden />
          </button>
        </div>
      </header>
      {problems.length > 0 && (
        <ul className="editor-problems" aria-label="Problems with this memory">
          {problems.map((f) => (
            <li key={f.id} className={f.severity} data-kind={f.kind}>
              {f.message}
              {f.kind === 'secret' && f.evidence.length > 0 && ` — ${f.evidence.join('; ')}`}
            </li>
          ))}
        </ul>
      )}
      {doc?.pastIndexCut && (
        <section className="warning-box" role="alert" aria-label="Past the index cut">
          <p>
            Its line in MEMORY.md is past the index's cut (200 lines or 25,000 characters): agents do not see
            it in the index they load, only through recall.
          </p>
          <div className="actions">
            <button type="button" onClick={() => void compactIndex()}>
              Compact the index
            </button>
          </div>
        </section>
      )}
      {readOnly && (
        <p className="notice" data-testid="read-only-notice">
          {doc?.linkedTo ? (
            <>
              Read-only: a symlink keeps this memory outside the memory dir, at{' '}
              <code className="mono">{doc.linkedTo}</code>. Claude Code and recall read it; Memdir never
              writes through the link — edit it where it lives.
            </>
          ) : (
            'Agent memories are read-only here; the subagent that owns them keeps them up to date.'
          )}
        </p>
      )}
      {leftBehind && (
        <section className="warning-box" role="alert" aria-label="Edits left behind">
          <p>
            Another window opened another project. These unsaved edits are to{' '}
            {doc ? <code className="mono">{doc.relPath}</code> : 'a new memory'} in{' '}
            <strong>{leftBehind.label}</strong>, and are saved only there.
          </p>
          <div className="actions">
            <button type="button" className="primary" onClick={() => void reopenLeftBehind()}>
              Open {leftBehind.label} again
            </button>
            <button type="button" onClick={clearEditor}>
              Discard the edits
            </button>
          </div>
        </section>
      )}
      {conflict && <ConflictPanel conflict={conflict} />}
      <fieldset className="properties" aria-label="Properties" disabled={readOnly}>
        <label className="prop">
          <span className="prop-key">Name</span>
          <input
            ref={name}
            name="name"
            value={draft.name}
            onChange={(e) => editDraft({ name: e.target.value })}
            required
          />
        </label>
        <label className="prop">
          <span className="prop-key">Type</span>
          <select
            name="type"
            value={draft.type ?? ''}
            title={draft.type ? TYPE_HINT[draft.type] : undefined}
            onChange={(e) => editDraft({ type: (e.target.value || null) as MemoryType | null })}
          >
            <option value="user">user</option>
            <option value="feedback">feedback</option>
            <option value="project">project</option>
            <option value="reference">reference</option>
            <option value="">(none)</option>
          </select>
        </label>
        <label className="prop wide">
          <span className="prop-key">Description</span>
          <input
            name="description"
            // A description someone wrote over several lines (a YAML block) shows as the one line
            // recall reads; an input would drop its line breaks and run the words together.
            value={draft.description.replace(/[ \t]*\r?\n[ \t]*/g, ' ')}
            placeholder="One specific line: it decides when this memory is recalled"
            onChange={(e) => editDraft({ description: e.target.value })}
            required
          />
        </label>
        <label className="prop">
          <span className="prop-key">File</span>
          <input
            name="fileName"
            className="mono"
            placeholder={isNew ? 'derived from the name' : ''}
            value={draft.fileName}
            onChange={(e) => editDraft({ fileName: e.target.value })}
          />
        </label>
        {isNew && (
          <label className="prop">
            <span className="prop-key">Scope</span>
            <select
              name="scope"
              value={draft.scope}
              onChange={(e) => editDraft({ scope: e.target.value as 'private' | 'team' })}
            >
              <option value="private">private</option>
              <option value="team">team (shared)</option>
            </select>
          </label>
        )}
        {draft.type && <p className="prop-hint muted">{TYPE_HINT[draft.type]}</p>}
      </fieldset>
      <div className="body-head">
        <span className="field-label">Content</span>
        <Segmented
          label="Editor mode"
          options={[false, true]}
          value={preview}
          onChange={setPreview}
          render={(p) => (p ? 'Preview' : 'Write')}
        />
      </div>
      {preview ? (
        <MarkdownPreview source={draft.body} onOpenMemory={(link) => void openLink(link)} />
      ) : (
        <MarkdownEditor
          key={doc?.relPath ?? 'new'}
          value={draft.body}
          readOnly={readOnly}
          label="Content"
          placeholder={'The rule or fact.\n\n**Why:** …\n\n**How to apply:** …'}
          onChange={(body) => body !== useStore.getState().draft?.body && editDraft({ body })}
          onSave={() => void useStore.getState().save()}
        />
      )}
      {secretWarning && (
        <section className="warning-box" role="alert" aria-label="Secret detected">
          <p>{secretWarning}</p>
          <div className="actions">
            <button type="button" className="danger" onClick={() => void save({ acceptSecret: true })}>
              Save anyway
            </button>
          </div>
        </section>
      )}
      {editorError && !conflict && (
        <p className="error-text" role="alert">
          {editorError}
        </p>
      )}
      {!readOnly && (
        <footer className="actions editor-foot">
          {!isNew &&
            !leftBehind &&
            (confirmDelete ? (
              <>
                <span className="warn-text">Delete this memory and its MEMORY.md line?</span>
                <button type="button" className="danger" onClick={() => void remove()}>
                  Delete
                </button>
                <button type="button" onClick={() => setConfirmDelete(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" className="ghost danger-text" onClick={() => setConfirmDelete(true)}>
                Delete…
              </button>
            ))}
          <span className="spacer" />
          <button type="submit" className="primary" disabled={(!dirty && !isNew) || Boolean(leftBehind)}>
            {isNew ? 'Create memory' : 'Save'}
          </button>
        </footer>
      )}
    </SubmitForm>
  )
}
