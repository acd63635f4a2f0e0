import { useShallow } from 'zustand/react/shallow'
import { useStore } from './store'

export function Toasts() {
  const { toasts, dismissToast, setView } = useStore(
    useShallow((s) => ({ toasts: s.toasts, dismissToast: s.dismissToast, setView: s.setView })),
  )
  if (!toasts.length) return null
  return (
    <div className="toasts" role="status">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.level}`}>
          <button className="toast-body" onClick={() => setView('activity')}>
            <strong>{t.title}</strong>
            {t.detail && <span>{t.detail.split('\n')[0]}</span>}
          </button>
          <button className="icon" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
