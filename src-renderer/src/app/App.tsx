import { lazy, Suspense, useEffect, useState } from 'react'
import { Sidebar } from './Sidebar'
import { lazyView, ViewBoundary } from './ViewBoundary'
import { errorMessage } from '../lib/format'
import { onConnectionChange, type ConnectionState } from '../transport/client'
import { startApp } from './start'
import { useStore } from './store'
import { MemoriesView } from '../features/memories/View'

// The first screen is the memory browser; every other view loads when it is first opened.
const IndexView = lazyView(() => import('../features/index/View').then((m) => m.IndexView))
const PromptView = lazyView(() => import('../features/prompt/View').then((m) => m.PromptView))
const RecallView = lazyView(() => import('../features/recall/View').then((m) => m.RecallView))
const ActivityView = lazyView(() => import('../features/activity/View').then((m) => m.ActivityView))
const TeamView = lazyView(() => import('../features/team/View').then((m) => m.TeamView))
const SettingsView = lazyView(() => import('../features/settings/View').then((m) => m.SettingsView))
const HistoryView = lazyView(() => import('../features/history/View').then((m) => m.HistoryView))
const InboxView = lazyView(() => import('../features/inbox/View').then((m) => m.InboxView))
const HealthView = lazyView(() => import('../features/health/View').then((m) => m.HealthView))

// Shown only once something happens (a toast, unsaved edits about to be dropped): loaded then.
const Toasts = lazy(() => import('./Toasts').then((m) => ({ default: m.Toasts })))
const UnsavedDialog = lazy(() => import('./UnsavedDialog').then((m) => ({ default: m.UnsavedDialog })))

const LAZY_VIEWS = [
  IndexView,
  PromptView,
  RecallView,
  ActivityView,
  TeamView,
  SettingsView,
  HistoryView,
  InboxView,
]

export function App() {
  const view = useStore((s) => s.view)
  const workspace = useStore((s) => s.workspace)
  const hasToasts = useStore((s) => s.toasts.length > 0)
  const leaving = useStore((s) => s.leaveGuard !== undefined)
  const [fatal, setFatal] = useState<string>()
  const [connection, setConnection] = useState<ConnectionState>('connected')
  useEffect(() => onConnectionChange(setConnection), [])

  useEffect(() => {
    startApp()
      // Health (its badges in the list) once the first screen is drawn and the page is idle.
      .then(() => requestIdleCallback(() => void useStore.getState().refreshHealth(), { timeout: 2000 }))
      .catch((e) => setFatal(errorMessage(e)))
  }, [])

  // Closing the tab or the window with unsaved edits asks first (Electron turns this into its own
  // dialog). The handler property returning a string is the form every Chromium honours on close.
  useEffect(() => {
    window.onbeforeunload = (e) => {
      if (!useStore.getState().dirty) return undefined
      e.preventDefault()
      return 'You have unsaved changes.'
    }
    return () => {
      window.onbeforeunload = null
    }
  }, [])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey
      if (mod && e.key.toLowerCase() === 'n') {
        e.preventDefault()
        useStore.getState().newMemory()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  if (fatal) {
    return (
      <div className="fatal" role="alert">
        <h1>Memdir could not connect to its workspace</h1>
        <p>{fatal}</p>
        <p className="muted">
          In a browser, open the exact URL that <code>npm run web</code> printed (it carries the access
          token).
        </p>
      </div>
    )
  }
  if (!workspace) return <div className="loading">Loading workspace…</div>

  return (
    <div className="shell">
      {connection !== 'connected' && (
        <div className="connection-banner" role="status" data-testid="connection-banner">
          {connection === 'unauthorized'
            ? 'This page’s access token is no longer valid: open the URL that memdir web printed.'
            : 'Disconnected from Memdir — reconnecting…'}
        </div>
      )}
      <Sidebar />
      <main className="main" aria-live="polite">
        <ViewBoundary name={view} onRetry={() => LAZY_VIEWS.forEach((v) => v.reset())}>
          <Suspense fallback={<div className="loading">Loading…</div>}>
            {view === 'memories' && <MemoriesView />}
            {view === 'index' && <IndexView />}
            {view === 'prompt' && <PromptView />}
            {/* A preview belongs to the project it was asked in (it is never re-asked on its own). */}
            {view === 'recall' && <RecallView key={workspace.memoryDir} />}
            {view === 'activity' && <ActivityView />}
            {/* Versions and proposals are numbered per project: an open diff or an edit of one
                never carries over to another project's of the same number. */}
            {view === 'history' && <HistoryView key={workspace.memoryDir} />}
            {view === 'inbox' && <InboxView key={workspace.memoryDir} />}
            {view === 'health' && <HealthView />}
            {/* Keyed by project: its fields start from that project's own server and repo. */}
            {view === 'team' && <TeamView key={workspace.memoryDir} />}
            {view === 'settings' && <SettingsView />}
          </Suspense>
        </ViewBoundary>
      </main>
      {hasToasts && (
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
      )}
      {leaving && (
        <Suspense fallback={null}>
          <UnsavedDialog />
        </Suspense>
      )}
    </div>
  )
}
