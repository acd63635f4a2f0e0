import { useEffect, useState } from 'react'
import type { MemoryType } from '../../../src-shared/types'
import { Markdown } from '../components/Markdown'
import { useStore } from '../store'

export function Editor() {
  const {
    draft,
    doc,
    isNew,
    dirty,
    conflict,
    secretWarning,
    editorError,
    editDraft,
    save,
    remove,
    takeTheirs,
    closeEditor,
    showHistory,
  } = useStore()
  const [preview, setPreview] = useState(false)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const readOnly = doc?.scope === 'agent'

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault()
        void useStore.getState().save()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  useEffect(() => setConfirmDelete(false), [doc?.relPath])

  if (!draft) return null
  return (
    <form
      className="editor"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <header className="pane-head">
        <h1>{isNew ? 'New memory' : draft.name || doc?.relPath}</h1>
        {doc && <span className="muted mono">{doc.relPath}</span>}
        {dirty && <span className="badge">Unsaved</span>}
        <span className="spacer" />
        {doc && doc.scope !== 'agent' && (
          <button type="button" className="ghost" onClick={() => showHistory(doc.relPath)}>
            History
          </button>
        )}
        <button type="button" className="ghost" onClick={closeEditor} aria-label="Close editor">
          Close
        </button>
      </header>
      {readOnly && (
        <p className="notice">
          Agent memories are read-only here; the subagent that owns them keeps them up to date.
        </p>
      )}
      <div className="form-grid">
        <label>
          Name
          <input
            name="name"
            value={draft.name}
            disabled={readOnly}
            onChange={(e) => editDraft({ name: e.target.value })}
            required
          />
        </label>
        <label>
          Type
          <select
            name="type"
            value={draft.type ?? ''}
            disabled={readOnly}
            onChange={(e) => editDraft({ type: (e.target.value || null) as MemoryType | null })}
          >
            <option value="user">user</option>
            <option value="feedback">feedback</option>
            <option value="project">project</option>
            <option value="reference">reference</option>
            <option value="">(none)</option>
          </select>
        </label>
        <label className="wide">
          Description{' '}
          <span className="muted">— one specific line; it decides when this memory is recalled</span>
          <input
            name="description"
            value={draft.description}
            disabled={readOnly}
            onChange={(e) => editDraft({ description: e.target.value })}
            required
          />
        </label>
        <label>
          File
          <input
            name="fileName"
            className="mono"
            placeholder={isNew ? 'derived from the name' : ''}
            value={draft.fileName}
            disabled={readOnly}
            onChange={(e) => editDraft({ fileName: e.target.value })}
          />
        </label>
        {isNew && (
          <label>
            Scope
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
      </div>
      <div className="body-head">
        <span className="field-label">Content</span>
        <div className="segmented" role="group" aria-label="Editor mode">
          <button type="button" className={!preview ? 'on' : ''} onClick={() => setPreview(false)}>
            Write
          </button>
          <button type="button" className={preview ? 'on' : ''} onClick={() => setPreview(true)}>
            Preview
          </button>
        </div>
      </div>
      {preview ? (
        <Markdown source={draft.body} />
      ) : (
        <textarea
          name="body"
          aria-label="Content"
          value={draft.body}
          disabled={readOnly}
          placeholder={'The rule or fact.\n\n**Why:** …\n\n**How to apply:** …'}
          onChange={(e) => editDraft({ body: e.target.value })}
        />
      )}
      {conflict && (
        <section className="conflict" role="alert" aria-label="Edit conflict">
          <h2>This memory changed on disk while you were editing</h2>
          <p className="muted">Nothing was overwritten. Compare both versions and choose.</p>
          <div className="conflict-cols">
            <div>
              <h3>On disk now</h3>
              <pre data-testid="conflict-theirs">{conflict.current ?? '(the file was deleted)'}</pre>
            </div>
            <div>
              <h3>Your version</h3>
              <pre data-testid="conflict-mine">{conflict.attempted}</pre>
            </div>
          </div>
          <div className="actions">
            <button type="button" onClick={() => void takeTheirs()}>
              Discard mine, load theirs
            </button>
            <button type="button" className="danger" onClick={() => void save({ overwrite: true })}>
              Keep mine (overwrite)
            </button>
          </div>
        </section>
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
        <footer className="actions">
          {!isNew &&
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
          <button type="submit" className="primary" disabled={!dirty && !isNew}>
            {isNew ? 'Create memory' : 'Save'}
          </button>
        </footer>
      )}
    </form>
  )
}
