import { useEffect, useRef } from 'react'
import { focusOnMount } from '../lib/focus-on-mount'
import { useFocusTrap } from '../lib/focus-trap'
import { useStore } from './store'

/** Save / Discard / Cancel when something would drop the editor's unsaved edits. */
export function UnsavedDialog() {
  const guard = useStore((s) => s.leaveGuard)
  const name = useStore((s) => s.draft?.name || s.doc?.relPath || 'this memory')
  const resolve = useStore((s) => s.resolveLeave)
  const modal = useRef<HTMLDivElement>(null)
  useFocusTrap(modal, !!guard)
  useEffect(() => {
    if (!guard) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && void resolve('cancel')
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [guard, resolve])
  if (!guard) return null
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="unsaved-title" ref={modal}>
        <h2 id="unsaved-title">Unsaved changes</h2>
        <p>
          <strong>{name}</strong> has changes that are not saved yet.
        </p>
        <div className="actions">
          <button className="primary" ref={focusOnMount} onClick={() => void resolve('save')}>
            Save
          </button>
          <button className="danger" onClick={() => void resolve('discard')}>
            Discard
          </button>
          <span className="spacer" />
          <button onClick={() => void resolve('cancel')}>Cancel</button>
        </div>
      </div>
    </div>
  )
}
