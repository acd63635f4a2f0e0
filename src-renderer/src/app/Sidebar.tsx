import { useShallow } from 'zustand/react/shallow'
import {
  Activity,
  HeartPulse,
  BookOpen,
  FileText,
  FolderOpen,
  History,
  Inbox,
  type LucideIcon,
  MessageSquareText,
  Search,
  Settings,
  Users,
} from 'lucide-react'
import { useState } from 'react'
import type { WorkspaceSummary } from '../../../src-shared/types'
import { errorMessage, folderName } from '../lib/format'
import { focusOnMount } from '../lib/focus-on-mount'
import { useStore, type View } from './store'
import { CopyButton } from '../components/CopyButton'

interface NavItem {
  view: View
  label: string
  hint: string
  icon: LucideIcon
}

const NAV: { group: string; items: NavItem[] }[] = [
  {
    group: 'Memory',
    items: [
      { view: 'memories', label: 'Memories', hint: 'Browse, search and edit', icon: BookOpen },
      { view: 'index', label: 'MEMORY.md', hint: 'The index the agent loads', icon: FileText },
      { view: 'inbox', label: 'Review inbox', hint: 'Proposals waiting for approval', icon: Inbox },
      { view: 'history', label: 'History', hint: 'Every change, restorable', icon: History },
      { view: 'activity', label: 'Activity', hint: 'Extraction, dream, sync, agents', icon: Activity },
    ],
  },
  {
    group: 'Inspect',
    items: [
      { view: 'prompt', label: 'Prompt', hint: 'The memory prompt section', icon: MessageSquareText },
      { view: 'recall', label: 'Recall', hint: 'Preview what a query recalls', icon: Search },
      { view: 'health', label: 'Health', hint: 'Stale, orphaned and duplicate memories', icon: HeartPulse },
    ],
  },
  {
    group: 'Sync & Settings',
    items: [
      { view: 'team', label: 'Team sync', hint: 'Shared team memory', icon: Users },
      { view: 'settings', label: 'Settings', hint: 'Model, background work, integrations', icon: Settings },
    ],
  },
]

function sourceLabel(source: string): string {
  if (source === 'demo') return 'sample memories (demo)'
  if (source === 'env') return 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE'
  if (source.startsWith('settings:')) return `autoMemoryDirectory in ${source.slice(9)} settings`
  return 'default (canonical git root)'
}

const UNLINKED = 'unlinked:'

/** A listed memory dir with no known project folder: the user names the folder once. */
function LinkFolder({ w, onDone }: { w: WorkspaceSummary; onDone: () => void }) {
  const link = useStore((s) => s.linkWorkspace)
  const [folder, setFolder] = useState('')
  const [error, setError] = useState<string>()
  return (
    <form
      className="link-folder"
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
      onSubmit={(e) => {
        e.preventDefault()
        setError(undefined)
        link(w.memoryDir, folder.trim()).then(onDone, (err) => setError(errorMessage(err)))
      }}
    >
      <p className="small">
        No Claude Code session of <strong>{w.label}</strong> is left to tell its project folder. Which folder
        is it?
      </p>
      <input
        aria-label="Project folder for this memory"
        placeholder="/path/to/project"
        value={folder}
        onChange={(e) => setFolder(e.target.value)}
        ref={focusOnMount}
      />
      {error && <p className="error-text small">{error}</p>}
      <div className="actions">
        <button type="button" className="ghost" onClick={onDone}>
          Cancel
        </button>
        <button className="primary" disabled={!folder.trim()}>
          Open
        </button>
      </div>
    </form>
  )
}

export function Sidebar() {
  const {
    workspace,
    workspaces,
    view,
    setView,
    openWorkspace,
    activity,
    activitySeenAt,
    health,
    reviewCount,
    showHistory,
  } = useStore(
    useShallow((s) => ({
      workspace: s.workspace,
      workspaces: s.workspaces,
      view: s.view,
      setView: s.setView,
      openWorkspace: s.openWorkspace,
      activity: s.activity,
      activitySeenAt: s.activitySeenAt,
      health: s.health,
      reviewCount: s.reviewCount,
      showHistory: s.showHistory,
    })),
  )
  const [folder, setFolder] = useState('')
  const [error, setError] = useState<string>()
  const [linking, setLinking] = useState<WorkspaceSummary>()
  if (!workspace) return null
  const unseen = activity.filter((a) => a.level === 'error' && a.at > activitySeenAt).length
  const current = workspaces.find((w) => w.memoryDir === workspace.memoryDir)

  const open = async (root: string) => {
    setError(undefined)
    try {
      await openWorkspace(root)
      // Cleared only if it still holds this folder: a path typed while the open finished stays.
      setFolder((typed) => (typed.trim() === root ? '' : typed))
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  const choose = (value: string) => {
    if (!value.startsWith(UNLINKED)) return void open(value)
    setLinking(workspaces.find((w) => w.memoryDir === value.slice(UNLINKED.length)))
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
          value={current?.projectRoot || workspace.projectRoot}
          onChange={(e) => choose(e.target.value)}
        >
          {!current && (
            <option value={workspace.projectRoot}>
              {workspace.isDemo ? 'Demo workspace' : folderName(workspace.projectRoot)}
            </option>
          )}
          {workspaces.map((w) => (
            <option key={w.memoryDir} value={w.projectRoot || UNLINKED + w.memoryDir}>
              {w.label} · {w.memoryCount}
              {w.projectRoot ? '' : ' (pick folder)'}
            </option>
          ))}
        </select>
        {linking && <LinkFolder w={linking} onDone={() => setLinking(undefined)} />}
        <form
          className="open-folder"
          onSubmit={(e) => {
            e.preventDefault()
            if (folder.trim()) void open(folder.trim())
          }}
        >
          <FolderOpen size={14} aria-hidden />
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
          <dd className="path-line">
            <span className="mono path-short" title={workspace.memoryDir} data-testid="memory-dir">
              {/* The end of the path matters most: cut at the start, keep the text itself left-to-right. */}
              <bdi>{workspace.memoryDirShort}</bdi>
            </span>
            <CopyButton text={workspace.memoryDir} label="Copy path" />
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
        </dl>
        {workspace.isDemo && (
          <p className="demo-note" data-testid="demo-note">
            <strong>Demo workspace</strong> with sample memories. To open your own project, pick it above (any
            project Claude Code has memory for is listed) or type its folder in “Open folder”.
          </p>
        )}
      </section>
      <nav aria-label="Views">
        {NAV.map((g) => (
          <div className="nav-group" key={g.group} role="group" aria-label={g.group}>
            <div className="nav-group-label">{g.group}</div>
            {g.items.map((n) => (
              <button
                key={n.view}
                className={`nav-item ${view === n.view ? 'active' : ''}`}
                aria-current={view === n.view ? 'page' : undefined}
                onClick={() => (n.view === 'history' ? showHistory(undefined) : setView(n.view))}
                title={n.hint}
              >
                <n.icon size={16} aria-hidden />
                <span className="nav-label">{n.label}</span>
                {n.view === 'activity' && unseen > 0 && (
                  <span className="count error" data-testid="activity-errors">
                    {unseen}
                  </span>
                )}
                {n.view === 'health' && (health?.errors ?? 0) > 0 && (
                  <span className="count error" data-testid="health-count" title="Health errors">
                    {health?.errors}
                  </span>
                )}
                {n.view === 'inbox' && reviewCount > 0 && (
                  <span className="count accent" data-testid="inbox-count">
                    {reviewCount}
                  </span>
                )}
              </button>
            ))}
          </div>
        ))}
      </nav>
      <footer className="sidebar-foot muted">
        {workspace.modelConfigured ? 'Model configured' : 'No model — offline recall'}
      </footer>
    </aside>
  )
}
