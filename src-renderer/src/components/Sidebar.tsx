import { useState } from 'react'
import { errorMessage } from '../transport/client'
import { useStore, type View } from '../store'

const NAV: { view: View; label: string; hint: string }[] = [
  { view: 'memories', label: 'Memories', hint: 'Browse and edit' },
  { view: 'index', label: 'MEMORY.md', hint: 'The index the agent loads' },
  { view: 'prompt', label: 'Prompt', hint: 'The memory prompt section' },
  { view: 'recall', label: 'Recall', hint: 'Preview what a query recalls' },
  { view: 'activity', label: 'Activity', hint: 'Extraction, dream, sync' },
  { view: 'history', label: 'History', hint: 'Every change, restorable' },
  { view: 'inbox', label: 'Review inbox', hint: 'Proposals waiting for approval' },
  { view: 'team', label: 'Team sync', hint: 'Shared team memory' },
  { view: 'settings', label: 'Settings', hint: 'Model, extraction, dream' },
]

function sourceLabel(source: string): string {
  if (source === 'env') return 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE'
  if (source.startsWith('settings:')) return `autoMemoryDirectory in ${source.slice(9)} settings`
  return 'default (canonical git root)'
}

export function Sidebar() {
  const { workspace, workspaces, view, setView, openWorkspace, activity, reviewCount, showHistory } =
    useStore()
  const [folder, setFolder] = useState('')
  const [error, setError] = useState<string>()
  if (!workspace) return null
  const unseen = activity.filter((a) => a.level === 'error').length

  const open = async (root: string) => {
    setError(undefined)
    try {
      await openWorkspace(root)
      setFolder('')
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  return (
    <aside className="sidebar">
      <div className="brand">
        <span className="logo" aria-hidden>
          ◆
        </span>
        Memdir
      </div>
      <section className="workspace" aria-label="Workspace">
        <label className="field-label" htmlFor="workspace-select">
          Workspace
        </label>
        <select
          id="workspace-select"
          title={workspace.projectRoot}
          value={workspace.projectRoot}
          onChange={(e) => void open(e.target.value)}
        >
          {!workspaces.some((w) => w.projectRoot === workspace.projectRoot) && (
            <option value={workspace.projectRoot}>
              {workspace.isDemo
                ? 'Demo workspace'
                : workspace.projectRoot.split(/[\\/]/).filter(Boolean).pop()}
            </option>
          )}
          {workspaces.map((w) => (
            <option key={w.projectRoot} value={w.projectRoot}>
              {w.label} · {w.memoryCount}
            </option>
          ))}
        </select>
        <form
          className="open-folder"
          onSubmit={(e) => {
            e.preventDefault()
            if (folder.trim()) void open(folder.trim())
          }}
        >
          <input
            aria-label="Open a project folder"
            placeholder="Open folder… /path/to/project"
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
          />
        </form>
        {error && <p className="error-text">{error}</p>}
        <dl className="resolved">
          <dt>Memory dir</dt>
          <dd className="mono" title={workspace.memoryDir}>
            {workspace.memoryDir}
          </dd>
          <dt>Chosen by</dt>
          <dd data-testid="memory-source">{sourceLabel(workspace.source)}</dd>
          {workspace.rejected.map((r) => (
            <dd key={r.source} className="warn-text">
              Ignored {r.source}: {r.reason}
            </dd>
          ))}
          {!workspace.enabled && (
            <dd className="error-text" data-testid="memory-disabled">
              Auto memory is off: {workspace.enabledReason}
            </dd>
          )}
          {workspace.isDemo && <dd className="badge demo">Demo — sample memories</dd>}
        </dl>
      </section>
      <nav aria-label="Views">
        {NAV.map((n) => (
          <button
            key={n.view}
            className={`nav-item ${view === n.view ? 'active' : ''}`}
            aria-current={view === n.view ? 'page' : undefined}
            onClick={() => (n.view === 'history' ? showHistory(undefined) : setView(n.view))}
            title={n.hint}
          >
            {n.label}
            {n.view === 'activity' && unseen > 0 && <span className="count error">{unseen}</span>}
            {n.view === 'inbox' && reviewCount > 0 && (
              <span className="count accent" data-testid="inbox-count">
                {reviewCount}
              </span>
            )}
          </button>
        ))}
      </nav>
      <footer className="sidebar-foot muted">
        {workspace.modelConfigured ? 'Model configured' : 'No model — offline recall'}
      </footer>
    </aside>
  )
}
